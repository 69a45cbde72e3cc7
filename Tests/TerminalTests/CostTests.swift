import Foundation
import TestSupport
import Testing

/// Cost in the console (tmux, loopback server): `/cost` asks the server to count the input tokens and prices
/// them; the usage line shows each request's estimated cost and the session's total; `/usage` tables them by
/// model. `ask --estimate` is in BinaryTests.
@Suite("cost before and after sending")
struct CostTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theConsoleShowsCostsAndTheSessionsUsage() async throws {
        let prepare: (inout ConsoleHarness) -> Void = { $0.extraVariables = ["OPENRESPONSES_MODEL": "gpt-4.1-mini"] }
        try await ConsoleHarness.withConsole(route: ConsoleRoutes.cost(counted: 77), prepare: prepare) {
            tmux, server, _ in
            try await tmux.send(
                "/cost what is the capital of France?",
                until:
                    "Input: 77 tokens for gpt-4.1-mini (counted by the server) · ~$0.000031 at $0.40 per 1M input tokens"
            )
            #expect(server.requests.map(\.path) == ["/v1/responses/input_tokens"])
            // 10 uncached input tokens at $0.40, 2 cached at $0.10, 3 output at $1.60 per million: $0.000009.
            try await tmux.send("hello", until: "~$0.000009\n")
            try await tmux.send("hello again", until: "~$0.000009 (session ~$0.000018)")
            let screen = try await tmux.send("/usage", until: "Session total: $0.000018")
            #expect(screen.contains("gpt-4.1-mini  2         24     4       6       $0.000018"), "\(screen)")
            try tmux.press("C-d")
        }
    }
}
