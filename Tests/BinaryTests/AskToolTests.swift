import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `ask` runs function tools through the same chat session as the console: the built binary against a
/// loopback server that first calls a function, then answers with what the function returned.
@Suite("ask with function tools (binary)")
struct AskToolTests {
    /// A function call first; then, once the input carries its output, that output as the answer.
    static func route() -> LoopbackServer.Route {
        { request in
            let items = request.jsonBody?["input"] as? [[String: Any]] ?? []
            if let output = items.first(where: { $0["type"] as? String == "function_call_output" }) {
                return .sse(
                    Fixtures.textStream(
                        id: "resp_2", text: "tool said: \(output["output"] as? String ?? "?")",
                        previousResponseID: request.jsonBody?["previous_response_id"] as? String))
            }
            return .sseFixture("stream-function-call.sse")
        }
    }

    @Test func theFunctionToolsPresetWithYesCompletesARoundTrip() async throws {
        let server = try await LoopbackServer.start(route: Self.route())
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let result = try await harness.run(["ask", "--preset", "function-tools", "--yes", "what time is it in UTC?"])
        await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"tool said: {"timezone":"UTC","local_time":""#), "\(result.stdout)")
        #expect(result.stderr.hasPrefix(#"[local_time → {"timezone":"UTC","local_time":""#), "\(result.stderr)")
        #expect(server.requests.count == 2)
        let second = try #require(server.requests.last?.jsonBody)
        #expect(second["previous_response_id"] as? String == "resp_f1")
        let output = try #require((second["input"] as? [[String: Any]])?.first)
        #expect(output["call_id"] as? String == "call_1")
    }

    @Test func anUntrustedHandlerIsRefusedWithoutYesWhenStdinIsNotATerminal() async throws {
        let server = try await LoopbackServer.start(route: Self.route())
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try harness.writeFunctionPreset(
            "untrusted", handler: #"{command: [sh, -c, "echo ran > \#(harness.home.path)/ran"]}"#)
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--preset", "untrusted", "what time is it?"],
            environment: harness.variables, stdin: "")
        await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: a tool needs approval to run, and stdin is not a terminal to ask on: pass --yes"))
        #expect(result.stderr.contains("[not run]"))
        #expect(result.stdout == #"tool said: {"error":"the user declined to run local_time"}"# + "\n")
        #expect(!FileManager.default.fileExists(atPath: harness.home.appendingPathComponent("ran").path))
    }
}
