import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The built executable, run as a user runs it.
@Suite("openresponses binary")
struct BinaryTests {
    @Test func askThenInspectListAndShow() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let binary = Subprocess.openresponsesBinary

        let ask = try await Subprocess.run(
            binary, ["ask", "--model", "openai/echo", "hello there"], environment: harness.variables)
        #expect(ask.status == 0, "\(ask.stderr)")
        #expect(ask.stdout == "echo: hello there\n")

        let piped = try await Subprocess.run(
            binary, ["ask", "explain"], environment: harness.variables, stdin: "context text\n")
        #expect(piped.status == 0)
        #expect(piped.stdout == "echo: explain\n\ncontext text\n")

        let list = try await Subprocess.run(binary, ["inspect", "list", "--json"], environment: harness.variables)
        #expect(list.status == 0, "\(list.stderr)")
        let rows = try #require(try JSONValue.parse(Array(list.stdout.utf8)).arrayValue)
        #expect(rows.count == 2)
        let first = try #require(rows.last)
        #expect(first["state"] == "completed")
        #expect(first["model"] == "test-model")
        #expect(first["response_id"] == "resp_1")
        #expect(first["status"] == 200)

        let id = try #require(first["id"]?.intValue)
        let show = try await Subprocess.run(
            binary, ["inspect", "show", String(id), "--json"], environment: harness.variables)
        #expect(show.status == 0, "\(show.stderr)")
        let detail = try JSONValue.parse(Array(show.stdout.utf8))
        #expect(detail["request"]?["body"]?["input"] == "hello there")
        #expect(detail["request"]?["body"]?["model"] == "openai/echo")
        let events = try #require(detail["events"]?.arrayValue)
        #expect(events.count == Fixtures.textStream(id: "resp_1", text: "echo: hello there").count)
        #expect(events.first?["type"] == "response.created")
        #expect(events.last?["type"] == "response.completed")
        #expect(events.allSatisfy { $0["offset_ms"]?.doubleValue != nil })

        let text = try await Subprocess.run(binary, ["inspect", "show", String(id)], environment: harness.variables)
        #expect(text.stdout.contains("Authorization: [REDACTED]"))
        #expect(text.stdout.contains("response.output_text.delta"))

        #expect(try !harness.dataDirectoryContains(consoleTestKey))
        await server.stop()
    }

    @Test func missingKeyMessageAndExitCode() async throws {
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "hi"],
            environment: [
                "PATH": "/usr/bin:/bin",
                "OPENRESPONSES_HOME": FileManager.default.temporaryDirectory
                    .appendingPathComponent("openresponses-nokey-\(UUID().uuidString)").path,
            ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("OPENAI_API_KEY is not set"))
        #expect(result.stdout.isEmpty)
    }

    /// `ask` is parsed on its own for speed; help and usage errors still read as the full command's.
    @Test func askUsageAndHelpNameTheFullCommand() async throws {
        let environment = ["PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-x", "OPENRESPONSES_INSPECTOR": "off"]
        let bogus = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--bogus", "hi"], environment: environment)
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("Unknown option '--bogus'"))
        #expect(bogus.stderr.contains("Usage: openresponses ask"))
        let help = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: openresponses ask"))
        let missing = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--model"], environment: environment)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Missing value for '--model <model>'"))
        let dry = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--dry-run", "--model", "m", "hi"], environment: environment)
        #expect(dry.status == 0)
        #expect(dry.stdout.contains(#""model""#))
    }

    @Test func unknownExchangeIsAClearError() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        _ = try await harness.run(["ask", "x"])
        let result = try await harness.run(["inspect", "show", "999"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no exchange 999"))
        await server.stop()
    }
}
