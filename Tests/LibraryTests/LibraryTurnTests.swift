import Foundation
import Library
import Testing

/// A library turn's parts, as every front end gets them: the input a model is sent, the footnotes for the
/// markers its answer uses, and the answer without a model.
@Suite("A library turn")
struct LibraryTurnTests {
    let files: LibraryFixtures

    init() throws { files = try LibraryFixtures() }

    func turn(_ question: String, _ documents: [(String, String)]) async throws -> LibraryTurn {
        try await files.service(adding: documents).turn(question, k: 2)
    }

    @Test func theModelIsSentNumberedPassagesAndItsMarkersBecomeFootnotes() async throws {
        defer { files.remove() }
        let turn = try await turn(
            "where do quokkas live",
            [
                ("quokka.txt", "Quokkas live on Rottnest Island."),
                ("wombat.txt", "Wombats live in burrows; quokkas visit."),
            ])
        #expect(turn.hits.count == 2)
        #expect(turn.input.contains("[1]") && turn.input.contains("[2]"))
        #expect(turn.input.contains("Quokkas live on Rottnest Island."))
        #expect(turn.input.contains("where do quokkas live"))
        // Markers in the order first used; a number past the passages, or not a number, is no footnote.
        let notes = turn.footnotes(for: "On Rottnest [2], see [1] and [2] again; not [7] nor [x].")
        let lines = notes.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("[2]") && lines[1].hasPrefix("[1]"))
        #expect(turn.footnotes(for: "No markers at all.") == "")
    }

    @Test func withoutPassagesTheQuestionGoesAloneAndNothingIsCited() async throws {
        defer { files.remove() }
        let turn = try await turn("volcanoes of iceland", [("quokka.txt", "Quokkas live on Rottnest Island.")])
        #expect(turn.hits.isEmpty)
        #expect(turn.input == "volcanoes of iceland")
        #expect(turn.footnotes(for: "An answer citing [1].") == "")
        #expect(turn.withoutModel.text == "")
    }

    @Test func withoutAModelTheBestSentencesAreCitedInTheOrderTheyFirstCite() async throws {
        defer { files.remove() }
        let turn = try await turn(
            "quokkas island",
            [
                ("quokka.txt", "Quokkas live on Rottnest Island. They are small."),
                ("other.txt", "An island of quokkas."),
            ])
        let answer = turn.withoutModel
        #expect(answer.text.contains("• "))
        #expect(answer.text.contains("[1]"))
        #expect(!answer.sources.isEmpty)
        #expect(answer.sources.allSatisfy { hit in turn.hits.contains { $0.chunkID == hit.chunkID } })
    }
}
