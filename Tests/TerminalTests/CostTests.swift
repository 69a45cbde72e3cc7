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
        let server = try await LoopbackServer.start(route: ConsoleRoutes.cost(counted: 77))
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
