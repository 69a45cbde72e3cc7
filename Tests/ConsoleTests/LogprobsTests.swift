import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Console

/// `/logprobs`: the last answer's tokens with their probabilities and alternatives, as a table. The command
/// in the console (tmux) is in TerminalTests.
@Suite("log probabilities")
struct LogprobsTests {
    @Test func theTableShowsEachTokenItsProbabilityAndTheAlternatives() throws {
        let event = try #require(
            Fixtures.textStreamWithLogprobs(text: "Paris\n").last { $0.contains("response.completed") })
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
}
