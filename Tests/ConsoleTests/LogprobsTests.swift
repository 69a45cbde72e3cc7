import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Console

/// `/logprobs`: the last answer's tokens with their probabilities and alternatives, as a table; and in the
/// console (tmux, loopback server) before an answer, for an answer without them, and for one with them.
@Suite("log probabilities")
struct LogprobsTests {
    /// `text`'s frames with log probabilities on the final output_text parts: two tokens, each with its
    /// alternatives (the chosen one among them, as the API lists it).
    static func frames(text: String) -> [String] {
        let logprobs =
            #"[{"token":"Par","logprob":-0.0182,"bytes":[80,97,114],"top_logprobs":[{"token":"Par","logprob":-0.0182,"bytes":[]},{"token":" Paris","logprob":-4.5,"bytes":[]}]},{"token":"is\n","logprob":-0.693147,"bytes":[],"top_logprobs":[{"token":"is\n","logprob":-0.693147,"bytes":[]},{"token":"is.","logprob":-1.2,"bytes":[]}]}]"#
        return Fixtures.textStream(id: "resp_lp", text: text).map { frame in
            frame.contains("response.completed") || frame.contains("content_part.done")
                || frame.contains("output_item.done")
                ? frame.replacingOccurrences(
                    of: #""annotations":[]}"#, with: #""annotations":[],"logprobs":\#(logprobs)}"#) : frame
        }
    }

    @Test func theTableShowsEachTokenItsProbabilityAndTheAlternatives() throws {
        let event = try #require(Self.frames(text: "Paris\n").last { $0.contains("response.completed") })
        let data = Array(event.split(separator: "\n").first { $0.hasPrefix("data: ") }!.dropFirst(6).utf8)
        let response = try #require(
            try ResponseStreamEvent(ServerSentEvent(event: nil, data: data, id: nil, retry: nil)).finalResponse)
        let table = LogprobsTable(response: response)
        #expect(table.tokens.map(\.text) == ["Par", "is\n"])
        #expect(
            table.lines(width: 200, limit: 50) == [
                "#   token    p          alternatives",
                "1   \"Par\"    98.20 %    \" Paris\" 1.11 %",
                "2   \"is\\n\"   50.00 %    \"is.\" 30.12 %",
            ])
        #expect(table.lines(width: 200, limit: 1).last == "… 1 more tokens (/logprobs 2 shows them all)")
        #expect(table.lines(width: 20, limit: 1)[1] == "1   \"Par\"    98.20 …")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theConsoleShowsTheLastAnswersTokens() async throws {
        let counter = Counter()
        let server = try await LoopbackServer.start { _ in
            counter.next() == 1
                ? .sse(Fixtures.textStream(id: "resp_plain", text: "Plain answer")) : .sse(Self.frames(text: "Paris\n"))
        }
        defer { Task { await server.stop() } }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/logprobs")
        try await tmux.waitFor("No answer yet: /logprobs shows the last answer's tokens.")
        try tmux.type("first question")
        try await tmux.waitFor("Plain answer")
        try tmux.type("/logprobs")
        try await tmux.waitFor("The last answer has no log probabilities: /set include message.output_text.logprobs")
        try tmux.type("/set top_logprobs 2")
        try tmux.type("/set include message.output_text.logprobs")
        try tmux.type("capital of France?")
        try await tmux.waitFor("Paris")
        try tmux.type("/logprobs")
        try await tmux.waitFor("2   \"is\\n\"   50.00 %    \"is.\" 30.12 %")
        let body = try #require(server.requests.last?.jsonBody)
        #expect(body["top_logprobs"] as? Int == 2)
        #expect(body["include"] as? [String] == ["message.output_text.logprobs"])
        try tmux.type("/logprobs many")
        try await tmux.waitFor("error: /logprobs takes a number of tokens (/logprobs 100), not 'many'")
    }
}
