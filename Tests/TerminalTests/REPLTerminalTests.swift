import Foundation
import Inspector
import TestSupport
import Testing

/// The REPL in a real terminal (tmux): typed turns, chaining, Ctrl-C mid-stream, Ctrl-D, terminal restored.
@Suite("REPL in a terminal", .serialized)
struct REPLTerminalTests {
    @Test func twoTurnsThenCtrlCMidStreamThenAThirdTurn() async throws {
        try await ConsoleHarness.withConsole(
            route: echoRoute(counter: Counter()), arguments: ["--model", "openai/echo"]
        ) {
            tmux, server, harness in
            try await tmux.send("first question", until: "echo: first question")
            try await tmux.waitFor("\n> ", count: 2)

            try await tmux.send("second question", until: "echo: second question")
            try await tmux.waitFor("\n> ", count: 3)
            #expect(server.requests.count == 2)
            #expect(server.requests[1].jsonBody?["previous_response_id"] as? String == "resp_1")

            try await tmux.send("slow please", until: "w3 ")
            try tmux.press("C-c")
            // Timing is a benchmark's business; here: the stream stops (w40 never arrives) and the prompt returns.
            let screen = try await tmux.waitFor("[cancelled")
            #expect(!screen.contains("w40"))
            try await tmux.waitFor("\n> ", count: 4)

            try await tmux.send("third question", until: "echo: third question")
            #expect(server.requests.last?.jsonBody?["previous_response_id"] as? String == "resp_2")

            try await tmux.quit()
            // The terminal is back in cooked mode with echo on. The marker shows once on the typed command
            // line, once printed by echo.
            let stty = try await tmux.send(
                "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo STTY-DONE",
                until: "STTY-DONE", count: 2)
            #expect(stty.contains("icanon echo"))

            let history = try String(contentsOf: harness.home.appendingPathComponent("history"), encoding: .utf8)
            #expect(history.contains("first question"))
            #expect(history.contains("third question"))

            let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
            let states = try await store.recentExchanges().map(\.state)
            #expect(states == ["completed", "cancelled", "completed", "completed"])
        }
    }

    @Test func ctrlCAtThePromptClearsTheLine() async throws {
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter())) { tmux, server, _ in
            try tmux.type("half typed", enter: false)
            try await tmux.waitFor("> half typed")
            try tmux.press("C-c")
            try await tmux.waitFor("\n> ", count: 2)
            try await tmux.send("fresh line", until: "echo: fresh line")
            #expect(server.requests.count == 1)
            #expect(server.requests[0].jsonBody?["input"] as? String == "fresh line")
            try await tmux.send("/inspect last", until: "Exchange 1  POST")
            try await tmux.waitFor("Authorization: [REDACTED]")
            try await tmux.send("/inspect nine", until: "/inspect takes 'last' or an exchange id")
            try await tmux.quit(typing: "/quit")
        }
    }
}
