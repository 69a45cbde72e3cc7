import Foundation
import TestSupport
import Testing

@testable import Library

/// Crafted answers checked against their passages: with all-MiniLM-L6-v2 (meaning and words) and with the
/// words alone. One fabricated sentence among supported ones is flagged and the rest pass; a claim without
/// a citation, and a citation of a passage that does not exist, are flagged; a huge answer is capped.
@Suite(
    "Checking an answer's citations",
    .enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
struct CitationVerifierTests {
    static let passages = [
        """
        SQLite's write-ahead log keeps changes in a separate WAL file next to the database. A checkpoint copies \
        the pages from the WAL back into the database file. By default a checkpoint runs automatically when \
        the WAL reaches 1000 pages, and readers never block writers while it runs.
        """,
        """
        To bleed a hydraulic disc brake, take the wheel off and fit a bleed block between the pads. Push fresh \
        mineral oil up from the caliper with a syringe until no more air bubbles come out at the lever.
        """,
    ]

    static let answer = """
        Here is what your notes say:

        SQLite keeps changes in a separate write-ahead log file [1]. A checkpoint copies the WAL's pages back \
        into the database file [1]. The Eiffel Tower was painted green in 1889 by a team of Roman sailors [1]. \
        To bleed the brake, fit a bleed block between the pads and push mineral oil up from the caliper [2].
        """

    func verifier() throws -> CitationVerifier {
        let folder = try #require(InstalledModel.minilm, Comment(rawValue: InstalledModel.skipReason))
        return CitationVerifier(embedder: try MiniLMEmbedder(folder: folder))
    }

    func verdicts(_ report: CitationReport) -> [CitationReport.Verdict] { report.sentences.map(\.verdict) }

    @Test(arguments: [true, false])
    func theOneFabricatedSentenceIsFlaggedAndTheRestPass(meaning: Bool) async throws {
        let verifier = meaning ? try verifier() : CitationVerifier(embedder: nil)
        let report = try await verifier.verify(answer: Self.answer, passages: Self.passages)
        #expect(report.usedEmbedding == meaning)
        #expect(verdicts(report) == [.supported, .supported, .unsupported, .supported])
        #expect(
            report.flagged.map(\.text) == ["The Eiffel Tower was painted green in 1889 by a team of Roman sailors."])
        let supported = report.sentences[0]
        #expect(supported.bestSource == 1)
        #expect(supported.snippet?.contains("write-ahead log") == true)
        #expect((supported.similarity != nil) == meaning)
    }

    @Test func aClaimWithoutACitationIsFlaggedUncitedAndALeadInIsNot() async throws {
        let answer = """
            In short:
            A checkpoint copies pages from the WAL back into the database file.
            Readers never block writers [1].
            """
        let report = try await verifier().verify(answer: answer, passages: Self.passages)
        #expect(verdicts(report) == [.uncited, .supported])
        // Scored anyway, against the passage that would have supported it.
        #expect(report.sentences[0].bestSource == 1)
    }

    @Test func aCitationOfAPassageThatDoesNotExistSupportsNothing() async throws {
        let answer = "A checkpoint copies the WAL's pages back into the database file [7]. Push mineral oil up [2, 9]."
        let report = try await verifier().verify(answer: answer, passages: Self.passages)
        #expect(verdicts(report) == [.unsupported, .supported])
        #expect(report.sentences[0].missing == [7])
        #expect(report.sentences[0].score == nil)
        #expect(report.sentences[1].missing == [9])
    }

    @Test func aHugeAnswerIsCappedInBytesAndSentences() async throws {
        let sentence = "A checkpoint copies the pages of the WAL back into the database file [1]. "
        let answer = String(repeating: sentence, count: 5 * 1024 * 1024 / sentence.utf8.count + 1)
        #expect(answer.utf8.count > 5 * 1024 * 1024)
        let clock = ContinuousClock()
        let started = clock.now
        let report = try await verifier().verify(answer: answer, passages: Self.passages)
        #expect(report.truncated)
        #expect(report.sentences.count == 64)
        #expect(report.skipped > 3000)
        #expect(report.flagged.isEmpty)
        // A hang's bound, not a speed target (the quadratic splitter this guards against took minutes; a loaded
        // machine takes over a minute for the honest one).
        #expect(clock.now - started < .seconds(300))
    }

    /// Dots without spaces and brackets that never close, as a hostile answer may send: read in linear time.
    @Test(arguments: ["a.", "[1.", "[", "e.g.[1"])
    func aHostileRunOfDotsAndBracketsIsReadQuickly(piece: String) async throws {
        let answer = String(repeating: piece, count: 256 * 1024 / piece.utf8.count)
        let clock = ContinuousClock()
        let started = clock.now
        let report = try await CitationVerifier(embedder: nil).verify(answer: answer, passages: Self.passages)
        #expect(report.sentences.count <= 64)
        #expect(clock.now - started < .seconds(120), "a hang's bound: quadratic, this took minutes")
    }

    @Test func theAnswerWithoutAModelPassesItsOwnCheck() async throws {
        let hits = Self.passages.enumerated().map { index, text in
            SearchHit(
                chunkID: Int64(index + 1), path: "/notes/\(index).md", title: nil, type: .markdown, page: nil,
                heading: nil, start: 0, end: text.unicodeScalars.count, text: text, score: 1, snippet: text)
        }
        let answer = LibraryTurn(question: "How does a checkpoint copy the WAL and bleed a brake?", hits: hits)
            .withoutModel
        let report = try await verifier().verify(answer: answer.text, passages: answer.sources.map(\.text))
        #expect(report.sentences.count >= 2)
        #expect(report.flagged.isEmpty, "\(report.flagged)")
    }
}
