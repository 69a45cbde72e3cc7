import Foundation

/// How hybrid search puts the keyword and semantic rankings together, chosen by measurement over three labelled
/// sets (Benchmarks/ranking.sh; Docs/library.md gives the figures).
extension Retriever {
    /// One ranking's passage: its chunk and score (BM25 made positive, higher better; or the cosine).
    public struct Candidate: Sendable, Hashable {
        public var id: Int64
        public var score: Double

        public init(id: Int64, score: Double) {
            self.id = id
            self.score = score
        }
    }

    public struct Fusion: Sendable, Hashable {
        public enum Method: String, Sendable, Hashable {
            /// Each ranking's scores scaled to 0…1 by its best (BM25 from 0, the cosine from `cosineFloor`), then
            /// weighed: keyword × weight + semantic × weight.
            case convex
            /// Σ weight / (k + rank) over the rankings that found the passage.
            case reciprocalRank
        }

        public var method = Method.convex
        /// The two rankings' weights when the query says nothing more (convex: their share, once added up).
        public var keywordWeight: Double = 0.4
        public var semanticWeight: Double = 0.6
        /// Reciprocal rank fusion's constant: how much the top ranks lead.
        public var k: Double = 60
        /// How deep each ranking goes.
        public var depth: Int = 50
        /// A cosine at or below this counts as no likeness at all (all-MiniLM-L6-v2's unrelated passages lie
        /// around 0 to 0.15).
        public var cosineFloor: Double = 0
        /// Whether the query's own words move the weights: exact terms (rare, quoted, code) move the keywords'
        /// share towards `exactKeywordWeight` by the share of the query they are (`QuerySignals.exactShare`),
        /// and a query or passage in a language other than English keeps only `foreignSemanticShare` of its
        /// semantic score.
        public var adaptive = true
        public var exactKeywordWeight: Double = 0.8
        public var foreignSemanticShare: Double = 0.5
        /// A term in at most this many passages (or a thousandth of them, in a larger library), and in at most
        /// one in twenty, is rare.
        public var rareLimit = 3

        public init() {}

        /// The rare limit of a library of `passages` passages (0: none is rare).
        public func rareLimit(passages: Int) -> Int { min(max(rareLimit, passages / 1000), passages / 20) }
    }

    /// A passage as fusion ranked it, and why.
    public struct Fused: Sendable, Hashable {
        public var id: Int64
        public var score: Double
        public var explanation: RankingExplanation
    }

    /// The two rankings fused, best first (ties to the keyword ranking's order, then the chunk's id).
    /// `languages` are the passages' languages where known (nil: not English-checked).
    public func fuse(
        keyword: [Candidate], semantic: [Candidate], signals: QuerySignals = QuerySignals(),
        languages: [Int64: TextLanguage] = [:]
    ) -> [Fused] {
        var (keywordWeight, semanticWeight) = (fusion.keywordWeight, fusion.semanticWeight)
        var reasons: [String] = []
        if fusion.adaptive, keywordWeight + semanticWeight > 0 {
            let share = keywordWeight / (keywordWeight + semanticWeight)
            let exact = share + (fusion.exactKeywordWeight - share) * signals.exactShare
            if let reason = signals.exactReason, exact > share {
                let total = keywordWeight + semanticWeight
                keywordWeight = exact * total
                semanticWeight = (1 - exact) * total
                reasons.append("\(reason): keywords weigh \(Self.format(exact))")
            }
            if let language = signals.language, language != .english {
                semanticWeight *= fusion.foreignSemanticShare
                reasons.append(
                    "the query is in \(language.rawValue), which the model was not trained on: its likeness counts \(Self.format(fusion.foreignSemanticShare))"
                )
            }
        }
        let keywordBest = keyword.map(\.score).max() ?? 0
        let semanticBest = semantic.map(\.score).max() ?? 0
        var parts: [Int64: RankingExplanation] = [:]
        for (rank, candidate) in keyword.enumerated() {
            let normalised = keywordBest > 0 ? max(candidate.score, 0) / keywordBest : 0
            parts[candidate.id, default: RankingExplanation(method: fusion.method, reasons: reasons)].keyword =
                .init(rank: rank + 1, score: candidate.score, normalised: normalised, weight: keywordWeight)
        }
        for (rank, candidate) in semantic.enumerated() {
            let span = semanticBest - fusion.cosineFloor
            let normalised = span > 0 ? max(candidate.score - fusion.cosineFloor, 0) / span : 0
            var weight = semanticWeight
            var explanation = parts[candidate.id, default: RankingExplanation(method: fusion.method, reasons: reasons)]
            if fusion.adaptive, signals.language == nil || signals.language == .english,
                let language = languages[candidate.id], language != .english
            {
                weight *= fusion.foreignSemanticShare
                explanation.reasons.append(
                    "the passage is in \(language.rawValue), which the model was not trained on: its likeness counts \(Self.format(fusion.foreignSemanticShare))"
                )
            }
            explanation.semantic = .init(rank: rank + 1, score: candidate.score, normalised: normalised, weight: weight)
            parts[candidate.id] = explanation
        }
        let scored = parts.map { id, explanation in
            Fused(id: id, score: explanation.fusedScore(k: fusion.k), explanation: explanation)
        }
        return scored.sorted {
            if $0.score != $1.score { return $0.score > $1.score }
            let (left, right) = ($0.explanation.keyword?.rank ?? .max, $1.explanation.keyword?.rank ?? .max)
            return left != right ? left < right : $0.id < $1.id
        }
    }

    /// `0.8`, `0.25`, `1`: at most two decimals, no trailing zeros.
    static func format(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
