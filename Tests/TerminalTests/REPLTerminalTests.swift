import Foundation
import Inspector
import TestSupport
import Testing

/// The REPL in a real terminal (tmux): typed turns, chaining, Ctrl-C mid-stream, Ctrl-D, terminal restored.
@Suite("REPL in a terminal", .serialized)
struct REPLTerminalTests {
    @Test func twoTurnsThenCtrlCMidStreamThenAThirdTurn() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole(arguments: ["--model", "openai/echo"])
        defer { tmux.kill() }

        try tmux.type("first question")
        try await tmux.waitFor("echo: first question")
        try await tmux.waitFor("\n> ", count: 2)

        try tmux.type("second question")
        try await tmux.waitFor("echo: second question")
        try await tmux.waitFor("\n> ", count: 3)
        #expect(server.requests.count == 2)
        #expect(server.requests[1].jsonBody?["previous_response_id"] as? String == "resp_1")

        try tmux.type("slow please")
        try await tmux.waitFor("w3 ")
        try tmux.press("C-c")
        // Timing is a benchmark's business; here: the stream stops (w40 never arrives) and the prompt returns.
        let screen = try await tmux.waitFor("[cancelled")
        #expect(!screen.contains("w40"))
        try await tmux.waitFor("\n> ", count: 4)

        try tmux.type("third question")
        try await tmux.waitFor("echo: third question")
        #expect(server.requests.last?.jsonBody?["previous_response_id"] as? String == "resp_2")

        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        // The terminal is back in cooked mode with echo on.
        try tmux.type("stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo STTY-DONE")
        // Once on the typed command line, once printed by echo.
        let stty = try await tmux.waitFor("STTY-DONE", count: 2)
        #expect(stty.contains("icanon echo"))

        let history = try String(contentsOf: harness.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.contains("first question"))
        #expect(history.contains("third question"))

        let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        let states = try await store.recentExchanges().map(\.state)
        #expect(states == ["completed", "cancelled", "completed", "completed"])
        await server.stop()
    }

    @Test func ctrlCAtThePromptClearsTheLine() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("half typed", enter: false)
        try await tmux.waitFor("> half typed")
        try tmux.press("C-c")
        try await tmux.waitFor("\n> ", count: 2)
        try tmux.type("fresh line")
        try await tmux.waitFor("echo: fresh line")
        #expect(server.requests.count == 1)
        #expect(server.requests[0].jsonBody?["input"] as? String == "fresh line")
        try tmux.type("/inspect last")
        try await tmux.waitFor("Exchange 1  POST")
        try await tmux.waitFor("Authorization: [REDACTED]")
        try tmux.type("/inspect nine")
        try await tmux.waitFor("/inspect takes 'last' or an exchange id")
        try tmux.type("/quit")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }
}
