import Foundation
import TestSupport
import Testing

/// `/logprobs` in the console (tmux, loopback server): before an answer, for an answer without log
/// probabilities, and for one with them. The table itself is in ConsoleTests.
@Suite("log probabilities")
struct LogprobsTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theConsoleShowsTheLastAnswersTokens() async throws {
        let counter = Counter()
        let route: LoopbackServer.Route = { _ in
            counter.next() == 1
                ? .sse(Fixtures.textStream(id: "resp_plain", text: "Plain answer"))
                : .sse(Fixtures.textStreamWithLogprobs(text: "Paris\n"))
        }
        try await ConsoleHarness.withConsole(route: route) { tmux, server, _ in
            try await tmux.send(steps: [
                ("/logprobs", "No answer yet: /logprobs shows the last answer's tokens."),
                ("first question", "Plain answer"),
                ("/logprobs", "The last answer has no log probabilities: /set include message.output_text.logprobs"),
            ])
            try tmux.type("/set top_logprobs 2")
            try tmux.type("/set include message.output_text.logprobs")
            try await tmux.send("capital of France?", until: "Paris")
            try await tmux.send("/logprobs", until: "2   \"is\\n\"   50.00 %    \"is.\" 30.12 %")
            let body = try #require(server.requests.last?.jsonBody)
            #expect(body["top_logprobs"] as? Int == 2)
            #expect(body["include"] as? [String] == ["message.output_text.logprobs"])
            try await tmux.send(
                "/logprobs many", until: "error: /logprobs takes a number of tokens (/logprobs 100), not 'many'")
        }
    }
}
