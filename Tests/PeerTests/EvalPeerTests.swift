import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `eval` over a matrix of two presets and two providers: the peer's llama-stack (its `openai/echo` model) and a
/// loopback server, each column's calls composed with its preset and sent to its provider with that provider's
/// key, the same case passing where the preset gives the answer what it needs and failing where it does not.
@Suite("eval across the peer and a loopback server")
struct EvalPeerTests {
    let home = TestHome("eval-peer")

    @Test(.enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
    func twoPresetsOnTwoProviders() async throws {
        defer { home.remove() }
        let stack = try #require(PeerServer.baseURL)
        let loop = try await LoopbackServer.start(route: answeringRoute { _, input in "echo: " + input })
        try home.write(
            "config.yaml",
            """
            version: 1
            providers:
              stack:
                base_url: \(stack)
                model: \(PeerServer.model)
              loop:
                base_url: \(loop.baseURL)
                key_env: LOOP_KEY
                model: gpt-4.1-mini

            """, mode: 0o600)
        try home.write("presets/plain.yaml", "version: 1\n")
        try home.write(
            "presets/greeter.yaml",
            "version: 1\ninput_template: \"Greet {{name}}. {{input}}\"\nvariables:\n  name: Ada\n")
        try home.write(
            "suite.yaml",
            """
            version: 1
            name: peer-matrix
            presets: [plain, greeter]
            cases:
              - id: echoes
                input: "Say hi"
                expect:
                  - contains: "Say hi"
                  - regex: "^echo"
              - id: names-ada
                input: "Say hello"
                expect:
                  - contains: "Ada"

            """)
        let result = try await home.run(
            [
                "eval", home.appendingPathComponent("suite.yaml").path, "--provider", "stack", "--provider", "loop",
                "--json",
            ],
            environment: ["LOOP_KEY": "sk-loop-test"])
        await loop.stop()
        #expect(result.status == 1, "names-ada fails in the plain columns: \(result.stderr)")
        let report = try JSONValue.parse(Array(result.stdout.utf8))
        let columns = (report["columns"]?.arrayValue ?? []).compactMap { $0["column"]?.stringValue }
        #expect(
            columns == [
                "preset=plain provider=stack", "preset=plain provider=loop", "preset=greeter provider=stack",
                "preset=greeter provider=loop",
            ], "\(columns)")
        var outcome: [String: Bool] = [:]
        for row in report["cases"]?.arrayValue ?? [] {
            outcome["\(row["id"]?.stringValue ?? "") \(row["column"]?.stringValue ?? "")"] = row["passed"]?.boolValue
        }
        for column in columns { #expect(outcome["echoes \(column)"] == true, "\(column): \(result.stdout)") }
        #expect(outcome["names-ada preset=greeter provider=stack"] == true, "the peer echoed the preset's template")
        #expect(outcome["names-ada preset=greeter provider=loop"] == true)
        #expect(outcome["names-ada preset=plain provider=stack"] == false)
        #expect(outcome["names-ada preset=plain provider=loop"] == false)
        // Each provider got its own columns' calls, the loopback one with its own key.
        #expect(loop.requests.count == 4)
        #expect(loop.requests.allSatisfy { $0.header("authorization") == "Bearer sk-loop-test" })
        let run = try #require(report["run"]?.stringValue)
        let onStack = try await home.run(["inspect", "list", "--eval", run, "--provider", "stack", "--json"])
        #expect((try JSONValue.parse(Array(onStack.stdout.utf8)).arrayValue ?? []).count == 4, "\(onStack.stdout)")
    }
}
