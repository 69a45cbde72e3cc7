import Foundation
import Testing

@testable import Inspector

/// The figures of `inspect replay --against`: caps on what a server returns, the order of the most changed,
/// like-with-like totals, and the estimate.
@Suite("Replay comparison")
struct ReplayComparisonTests {
    static func candidate(_ id: Int64, answer: String = "a", tokens: (Int?, Int?) = (10, 5), ms: Double? = 100)
        -> ReplayCandidate
    {
        ReplayCandidate(
            id: id, startedAt: Date(), url: "http://x/v1/responses", body: [], model: "gpt-4.1-mini", answer: answer,
            inputTokens: tokens.0, outputTokens: tokens.1, costUSD: 0.001, durationMs: ms)
    }

    @Test func aHugeAnswerIsCutAtACharacter() {
        let limit = ReplayComparison.answerLimit
        // "é" is two bytes: the limit falls inside one.
        let text = String(repeating: "a", count: limit - 1) + String(repeating: "é", count: 1000)
        let cut = ReplayComparison.capped(text)
        #expect(cut.hasSuffix(" […cut at 256 KB]"))
        #expect(!cut.contains("\u{FFFD}"))
        #expect(cut.utf8.count == limit - 1 + " […cut at 256 KB]".utf8.count)
        #expect(ReplayComparison.capped("short") == "short")
    }

    @Test func failedFirstThenLeastSimilarThenNothingToCompare() {
        let rows = [
            ReplayComparison.Row(original: Self.candidate(1), replay: .init(answer: "x"), similarity: 0.9),
            ReplayComparison.Row(original: Self.candidate(2), replay: .init(error: "HTTP 500"), similarity: nil),
            ReplayComparison.Row(original: Self.candidate(3, answer: ""), replay: .init(answer: ""), similarity: nil),
            ReplayComparison.Row(original: Self.candidate(4), replay: .init(answer: "y"), similarity: 0.1),
        ]
        let comparison = ReplayComparison(target: "model b", measure: "word overlap", rows: rows)
        #expect(comparison.changedMost(4).map(\.original.id) == [2, 4, 1, 3])
        #expect(comparison.failed == 1)
        #expect(abs((comparison.meanSimilarity ?? 0) - 0.5) < 1e-12)
    }

    @Test func totalsAndMediansCompareLikeWithLike() {
        let rows = [
            ReplayComparison.Row(
                original: Self.candidate(1, ms: 100), replay: .init(inputTokens: 10, outputTokens: 9, durationMs: 300),
                similarity: 1),
            ReplayComparison.Row(original: Self.candidate(2, ms: 50), replay: .init(error: "timeout"), similarity: nil),
            ReplayComparison.Row(
                original: Self.candidate(3, ms: 200), replay: .init(inputTokens: 10, outputTokens: 1, durationMs: 100),
                similarity: 1),
        ]
        let comparison = ReplayComparison(target: "t", measure: "m", rows: rows)
        let output = comparison.totals(\.outputTokens, \.outputTokens)
        #expect(output == (10, 10, 2))
        // The failed row's 50 ms is left out on both sides.
        #expect(comparison.medianDurations.before == 150 && comparison.medianDurations.after == 200)
    }

    @Test func theEstimateIsTheOriginalsTokensAtTheTargetsPrices() {
        let prices = PriceTable(prices: ["m": .init(input: 2, cachedInput: 0.5, output: 8)])
        let candidates = [Self.candidate(1, tokens: (1_000_000, 100_000)), Self.candidate(2, tokens: (nil, nil))]
        let estimate = ReplayComparison.estimate(candidates, model: "m", prices: prices)
        #expect(abs(estimate.usd - 2.8) < 1e-9 && estimate.unpriced == 1)
        #expect(ReplayComparison.estimate(candidates, model: "unknown", prices: prices).unpriced == 2)
    }
}
