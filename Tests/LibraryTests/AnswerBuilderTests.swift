import Foundation
import Testing

@testable import Library

/// The extractive answer's sentences: split where sentences end, lists, tables and code kept line by line,
/// and the sentences a passage's edges cut in two left out.
@Suite("Sentences of an extractive answer")
struct AnswerBuilderTests {
    func hit(_ text: String) -> SearchHit {
        SearchHit(
            chunkID: 1, path: "/notes/design.md", title: nil, type: .markdown, page: nil, heading: nil,
            start: 0, end: text.unicodeScalars.count, text: text, score: 1, snippet: text, endPage: nil)
    }

    @Test func aPassageIsSplitIntoItsSentencesWithSoftLineBreaksJoined() {
        let text = """
            The inspector keeps every exchange. It records the exact bytes of each
            request, and the events as they came.

            - replay sends a stored request again
            | setting | what it does |
            |---|---|
            | model | the model's name |
            """
        #expect(
            AnswerBuilder.sentences(text) == [
                "The inspector keeps every exchange.",
                "It records the exact bytes of each request, and the events as they came.",
                "- replay sends a stored request again",
                "setting: what it does",
                "model: the model's name",
            ])
    }

    @Test func theSentencesCutByThePassagesEdgesAreLeftOut() {
        let text = """
            passes to the observer without reading them. The wire layer knows nothing of terminals. An exchange's
            context is labels it
            """
        #expect(AnswerBuilder.sentences(text) == ["The wire layer knows nothing of terminals."])
        // A passage that begins inside a table row or a list item loses that piece, up to the next row or item.
        #expect(
            AnswerBuilder.sentences("much back (about 1 ms per MB) | 25.7 ms |\n| the next row here | 3 ms |") == [
                "the next row here: 3 ms"
            ])
        #expect(AnswerBuilder.sentences("the end of an item\n- the whole next item") == ["- the whole next item"])
        // A cut paragraph at the end goes whole when it has no sentence end of its own.
        #expect(
            AnswerBuilder.sentences("Whole sentence at the start here.\n\nand then a paragraph cut off in the") == [
                "Whole sentence at the start here."
            ])
    }

    @Test func endingsThatAreNotCutsAreKept() {
        #expect(
            AnswerBuilder.sentences("Run it like this:\n\n```sh\nswift build -c release\n```") == [
                "Run it like this:", "swift build -c release",
            ])
        #expect(
            AnswerBuilder.sentences("The steps are these.\n- add the files\n- ask a question") == [
                "The steps are these.", "- add the files", "- ask a question",
            ])
        #expect(AnswerBuilder.sentences("He said \"use the WAL.\"") == ["He said \"use the WAL.\""])
        // Nothing whole in it: the passage is kept as it is rather than lost.
        #expect(
            AnswerBuilder.sentences("only a middle piece of one long sentence") == [
                "only a middle piece of one long sentence"
            ])
    }

    @Test func theAnswerQuotesWholeSentences() {
        let passages = [
            hit(
                """
                and the console prints it. To replay an exchange, run inspect replay with its id. The new
                exchange is recorded beside the
                """)
        ]
        let answer = AnswerBuilder().extract(question: "how do I replay an exchange?", passages: passages)
        #expect(answer.map(\.text) == ["To replay an exchange, run inspect replay with its id."])
    }
}
