import Foundation
import ResponsesAPI

/// `inspect replay --against`: stored exchanges sent again to another model or provider, side by side — how
/// alike the answers are, and tokens, cost and latency before and after — with the totals and the exchanges
/// that changed most.
public struct ReplayComparison: Sendable {
    /// What one replay returned.
    public struct Outcome: Sendable, Hashable {
        /// The replay as the inspector recorded it (linked to the original by `replay_of`).
        public var exchangeID: Int64?
        public var answer: String
        public var model: String?
        public var inputTokens: Int?
        public var outputTokens: Int?
        public var costUSD: Double?
        public var durationMs: Double?
        /// Why it has no answer: the server's error, or a failure on the way.
        public var error: String?

        public init(
            exchangeID: Int64? = nil, answer: String = "", model: String? = nil, inputTokens: Int? = nil,
            outputTokens: Int? = nil, costUSD: Double? = nil, durationMs: Double? = nil, error: String? = nil
        ) {
            self.exchangeID = exchangeID
            self.answer = answer
            self.model = model
            self.inputTokens = inputTokens
            self.outputTokens = outputTokens
            self.costUSD = costUSD
            self.durationMs = durationMs
            self.error = error
        }

        /// A response's figures: its text, model and usage, priced by `prices`.
        public init(response json: JSONValue, durationMs: Double, prices: PriceTable) {
            let response = Response(json: json)
            let usage = Usage(json: json["usage"])
            self.init(
                answer: ReplayComparison.capped(response.outputText), model: response.model,
                inputTokens: TokenCount.clamped(usage?.inputTokens),
                outputTokens: TokenCount.clamped(usage?.outputTokens),
                costUSD: prices.cost(model: response.model, usage: usage),
                durationMs: durationMs,
                error: response.status == .failed ? (json["error"]?["message"]?.stringValue ?? "failed") : nil)
        }
    }

    public struct Row: Sendable, Hashable {
        public var original: ReplayCandidate
        public var replay: Outcome
        /// How alike the two answers are, 0...1 (cosine of their embeddings, or word overlap without the
        /// model); nil when the replay has no answer, or neither answer has text (tool calls only).
        public var similarity: Double?

        public init(original: ReplayCandidate, replay: Outcome, similarity: Double?) {
            self.original = original
            self.replay = replay
            self.similarity = similarity
        }
    }

    /// What the exchanges were replayed against, in words (`model gpt-4.1 on provider default`).
    public var target: String
    /// How `similarity` was measured (`all-MiniLM-L6-v2 cosine`, `word overlap`).
    public var measure: String
    public var rows: [Row]

    public init(target: String, measure: String, rows: [Row]) {
        self.target = target
        self.measure = measure
        self.rows = rows
    }

    public var failed: Int { rows.filter { $0.replay.error != nil }.count }

    public var meanSimilarity: Double? {
        let values = rows.compactMap(\.similarity)
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The sums of a figure over the rows that have it on both sides (so the two sums compare like with like).
    public func totals<T: AdditiveArithmetic>(_ before: (ReplayCandidate) -> T?, _ after: (Outcome) -> T?) -> (
        T, T, Int
    ) {
        var sums = (T.zero, T.zero, 0)
        for row in rows {
            guard let a = before(row.original), let b = after(row.replay) else { continue }
            sums.0 += a
            sums.1 += b
            sums.2 += 1
        }
        return sums
    }

    /// The medians of the latencies before and after, over the rows that have both.
    public var medianDurations: (before: Double?, after: Double?) {
        let both = rows.compactMap { row in
            row.original.durationMs.flatMap { a in row.replay.durationMs.map { (a, $0) } }
        }
        return (Self.median(both.map(\.0)), Self.median(both.map(\.1)))
    }

    /// An answer as the comparison keeps it: at most `answerLimit` bytes (cut at a character), so a huge
    /// answer cannot make the similarity, the excerpt or the page grow with it.
    public static func capped(_ answer: String) -> String {
        guard answer.utf8.count > answerLimit else { return answer }
        // The first byte left out is not the middle of a character: cut before the character it belongs to.
        let bytes = Array(answer.utf8.prefix(answerLimit + 1))
        var end = answerLimit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self) + " […cut at 256 KB]"
    }

    public static let answerLimit = 256 * 1024

    /// The median of a latency over the rows.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The rows whose answers changed most: failed replays first, then the least similar; those with no
    /// text to compare last.
    public func changedMost(_ limit: Int) -> [Row] {
        func rank(_ row: Row) -> Double { row.replay.error != nil ? -1 : row.similarity ?? 2 }
        return Array(rows.sorted { (rank($0), $0.original.id) < (rank($1), $1.original.id) }.prefix(limit))
    }

    /// What replaying `candidates` with `model` (nil: each with its own) should cost: each original's tokens
    /// at the target's prices. `unpriced` counts those with no tokens on record or no price for the model.
    public static func estimate(_ candidates: [ReplayCandidate], model: String?, prices: PriceTable) -> (
        usd: Double, unpriced: Int
    ) {
        var usd = 0.0
        var unpriced = 0
        for candidate in candidates {
            let usage = Usage(inputTokens: candidate.inputTokens, outputTokens: candidate.outputTokens)
            if let cost = prices.cost(model: model ?? candidate.model, usage: usage) {
                usd += cost
            } else {
                unpriced += 1
            }
        }
        return (usd, unpriced)
    }
}
