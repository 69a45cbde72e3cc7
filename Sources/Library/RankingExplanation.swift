/// Why a passage ranks where it does in hybrid search: where each ranking put it, its score there scaled to
/// 0…1, the weight that score was given, and what moved the weights (`library search --json` shows it).
public struct RankingExplanation: Sendable, Hashable {
    public struct Part: Sendable, Hashable {
        /// From 1.
        public var rank: Int
        /// BM25 (made positive) or the cosine.
        public var score: Double
        /// The score over the ranking's best (convex fusion's input).
        public var normalised: Double
        public var weight: Double
    }

    public var method: Retriever.Fusion.Method
    public var keyword: Part?
    public var semantic: Part?
    /// What moved the weights, for the query and for this passage, in words.
    public var reasons: [String]

    public init(method: Retriever.Fusion.Method, keyword: Part? = nil, semantic: Part? = nil, reasons: [String] = []) {
        self.method = method
        self.keyword = keyword
        self.semantic = semantic
        self.reasons = reasons
    }

    /// The fused score: Σ weight × normalised score (convex), or Σ weight / (k + rank) (reciprocal rank).
    public func fusedScore(k: Double) -> Double {
        [keyword, semantic].compactMap { $0 }.reduce(0) { total, part in
            switch method {
            case .convex: total + part.weight * part.normalised
            case .reciprocalRank: total + part.weight / (k + Double(part.rank))
            }
        }
    }
}
