import Foundation
import Testing

@testable import Library

/// How alike two answers are, without the model (word overlap) and how a long answer is cut into pieces.
@Suite("Answer similarity")
struct AnswerSimilarityTests {
    @Test func piecesOfTwoHundredWordsAtMostThirtyTwo() {
        let words = (0..<450).map { "w\($0)" }.joined(separator: "  \n")
        let pieces = AnswerSimilarity.pieces(words)
        #expect(pieces.count == 3)
        #expect(pieces[0].split(separator: " ").count == 200 && pieces[2].split(separator: " ").count == 50)
        // 10 MB of words: still 32 pieces, walked only as far as they are used.
        let huge = String(repeating: "a ", count: 5_000_000)
        #expect(AnswerSimilarity.pieces(huge).count == AnswerSimilarity.maximumPieces)
        #expect(AnswerSimilarity.pieces("   ").isEmpty)
    }

    @Test func wordOverlapWithoutTheModel() async throws {
        let similarity = AnswerSimilarity(embedder: nil)
        #expect(similarity.measure.hasPrefix("word overlap"))
        let scores = try await similarity.scores([
            ("The cat sat.", "the CAT sat"), ("a b c d", "a b x y"), ("", ""), ("words", ""),
        ])
        #expect(scores[0] == 1)
        #expect(scores[1] == 2.0 / 6.0)
        #expect(scores[2] == nil)
        #expect(scores[3] == 0)
    }
}
