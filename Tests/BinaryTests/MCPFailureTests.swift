import Foundation
import TestSupport
import Testing

/// An MCP server that fails: one on the official Python SDK that exits mid-call, or never answers. The call
/// fails naming the server (the user also sees its last stderr lines), the model is told, the turn ends normally, and no
/// server is left running.
@Suite(
    "ask with an MCP server that fails (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPFailureTests {
    func run(calling tool: String, arguments: String, timeout: Double = 30) async throws
        -> (result: Subprocess.Result, script: String)
    {
        let server = try await LoopbackServer.start(route: MCPServers.callingRoute(tool, arguments: arguments))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let command = try MCPServers.writeFlakyServer(in: harness.home)
        try MCPServers.writeConfig(
            """
            mcp_servers:
              flaky: {command: \(command), trusted: true, timeout: \(timeout)}
            mcp: [flaky]
            """, in: harness)
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "go"], environment: harness.variables, stdin: "")
        await server.stop()
        return (result, harness.home.appendingPathComponent("flaky.py").path)
    }

    /// Whether a process whose command line holds `needle` is running.
    func isRunning(_ needle: String) async throws -> Bool {
        let result = try await Subprocess.run("/usr/bin/pgrep", ["-f", needle], environment: [:])
        return result.status == 0
    }

    @Test func aServerThatExitsMidCallIsNamedWithItsLastStderrLines() async throws {
        let (result, script) = try await run(calling: "flaky__crash", arguments: #"{"reason":"the test asked"}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("tool said: error: the MCP server flaky exited with status 3"), "\(result.stdout)")
        // Its last stderr lines are the user's (and the log's), not sent to the model's provider.
        #expect(!result.stdout.contains("giving up"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "[flaky crash failed: the MCP server flaky exited with status 3; its last words on stderr:\n"
                    + "  flaky: giving up because the test asked"), "\(result.stderr)")
        #expect(try await !isRunning(script))
    }

    @Test func aServerThatNeverAnswersTimesOutByNameAndIsStopped() async throws {
        let began = ContinuousClock.now
        let (result, script) = try await run(calling: "flaky__hang", arguments: "{}", timeout: 1.5)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "tool said: error: the MCP server flaky did not answer within 1.5 seconds (running hang)"),
            "\(result.stdout)")
        // Generous: the Python SDK's server can take long to start on a loaded machine; it would hang an hour.
        #expect(ContinuousClock.now - began < .seconds(300))
        #expect(try await !isRunning(script))
    }

    @Test func argumentsThatAreNotAnObjectAreRefusedBeforeTheServerIsCalled() async throws {
        let (result, _) = try await run(calling: "flaky__echo", arguments: "[1, 2]")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the arguments are not a JSON object: [1, 2]"), "\(result.stdout)")
    }
}
