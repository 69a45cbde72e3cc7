import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Cost before and after: `ask --estimate` and `/cost` ask the server to count the input tokens (`POST
/// /responses/input_tokens` only, with the fields it takes) and price them; the usage line shows each
/// request's estimated cost and the session's total; `/usage` tables them by model.
@Suite("cost before and after sending")
struct CostTests {
    static func route(counted: Int) -> LoopbackServer.Route {
        { request in
            switch request.path {
            case "/v1/responses/input_tokens": .json(#"{"object":"response.input_tokens","input_tokens":\#(counted)}"#)
            case "/v1/responses":
                .sse(
                    Fixtures.textStream(
                        id: "resp_cost", model: "gpt-4.1-mini", text: "one two three", previousResponseID: nil))
            default: .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
    }

    @Test func askEstimateCountsAndPricesWithoutCreating() async throws {
        let server = try await LoopbackServer.start(route: Self.route(counted: 1234))
        defer { Task { await server.stop() } }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary,
            [
                "ask", "--estimate", "--model", "gpt-4.1-mini", "--set", "temperature=0.3", "--set",
                "max_output_tokens=50", "How long is a piece of string?",
            ],
            environment: harness.variables)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "Input: 1,234 tokens for gpt-4.1-mini (counted by the server) · ~$0.000494 at $0.40 per 1M input tokens; output $1.60 per 1M, not counted before it is written.\n"
        )
        #expect(server.requests.map(\.path) == ["/v1/responses/input_tokens"], "nothing is created")
        let body = try #require(server.requests.first?.jsonBody)
        #expect(
            Set(body.keys).isSubset(of: ResponsesClient.tokenCountFields),
            "only the fields input_tokens takes: \(body.keys.sorted())")
        #expect(body["model"] as? String == "gpt-4.1-mini")
        #expect(body["input"] != nil)

        let unknown = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--estimate", "--model", "my-local-model", "hi"],
            environment: harness.variables)
        #expect(
            unknown.stdout
                == "Input: 1,234 tokens for my-local-model (counted by the server) · no price for my-local-model in the price table.\n"
        )
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theConsoleShowsCostsAndTheSessionsUsage() async throws {
        let server = try await LoopbackServer.start(route: Self.route(counted: 77))
        defer { Task { await server.stop() } }
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = ["OPENRESPONSES_MODEL": "gpt-4.1-mini"]
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/cost what is the capital of France?")
        try await tmux.waitFor(
            "Input: 77 tokens for gpt-4.1-mini (counted by the server) · ~$0.000031 at $0.40 per 1M input tokens")
        #expect(server.requests.map(\.path) == ["/v1/responses/input_tokens"])
        // 10 uncached input tokens at $0.40, 2 cached at $0.10, 3 output at $1.60 per million: $0.000009.
        try tmux.type("hello")
        try await tmux.waitFor("~$0.000009\n")
        try tmux.type("hello again")
        try await tmux.waitFor("~$0.000009 (session ~$0.000018)")
        try tmux.type("/usage")
        let screen = try await tmux.waitFor("Session total: $0.000018")
        #expect(screen.contains("gpt-4.1-mini  2         24     4       6       $0.000018"), "\(screen)")
        try tmux.press("C-d")
    }
}
