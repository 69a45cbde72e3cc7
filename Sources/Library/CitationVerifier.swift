import Foundation

/// Whether each sentence of an answer is supported by the passages it cites (`[n]`, as `AnswerBuilder`'s
/// context asks a model to cite, and as the answer without a model cites). A sentence is scored against each
/// passage it cites by two measures, combined into one score compared with `threshold`:
/// - meaning: the cosine of the sentence's vector and the vector of the passage's closest window (a passage is
///   cut into windows of `windowWords` words, so a long one does not dilute the match), from `embedder`;
/// - words: the share of the sentence's content words found in the passage, folded and stemmed as the
///   library's keyword index folds them (unicode61 with diacritics removed, then porter).
/// With no embedder the words alone decide, against `keywordThreshold`. The weights and thresholds were chosen
/// on half of a labelled set and checked on the other half (Benchmarks/verify.sh, Docs/performance.md).
/// The answer is untrusted and may be huge: at most `maxAnswerBytes` of it are read, at most `maxSentences`
/// sentences checked, and each passage gives at most `maxWindows` windows.
public struct CitationVerifier: Sendable {
    public var embedder: (any Embedder)?
    /// The weight of the cosine in the combined score (the words' share has the rest). This weight and the
    /// thresholds are Benchmarks/verify.sh's choice on half of its set (held-out precision 1.000, recall 0.997).
    public var semanticWeight = 0.3
    /// A cited sentence whose best combined score reaches this is supported.
    public var threshold = 0.57
    /// The same without an embedder: the words' share alone (held-out precision 1.000, recall 0.994).
    public var keywordThreshold = 0.51
    public var maxAnswerBytes = 256 * 1024
    public var maxSentences = 64
    public var windowWords = 40
    public var maxWindows = 16

    public init(embedder: (any Embedder)?) {
        self.embedder = embedder
    }

    /// Checks `answer` against `passages`, the texts its `[n]` point to (`passages[n - 1]`).
    public func verify(answer: String, passages: [String]) async throws -> CitationReport {
        var text = answer
        let truncated = text.utf8.count > maxAnswerBytes
        if truncated { text = String(decoding: text.utf8.prefix(maxAnswerBytes), as: UTF8.self) }
        let all = Self.sentences(text)
        let claims = all.filter { !$0.citations.isEmpty || Self.isClaim($0.text) }
        let checked = Array(claims.prefix(maxSentences))
        let scorer = try await Scorer(
            verifier: self, sentences: checked.map(\.text), passages: passages.map { String($0.prefix(20_000)) })
        var result: [CitationReport.Sentence] = []
        for (index, sentence) in checked.enumerated() {
            let known = sentence.citations.filter { $0 >= 1 && $0 <= passages.count }
            let missing = sentence.citations.filter { !known.contains($0) }
            // A sentence without citations is still scored against every passage: where it could have cited.
            let candidates = sentence.citations.isEmpty ? passages.indices.map { $0 + 1 } : known
            let best = candidates.map { scorer.score(sentence: index, passage: $0 - 1) }
                .max { $0.combined < $1.combined }
            let verdict: CitationReport.Verdict =
                sentence.citations.isEmpty
                ? .uncited : (best.map { $0.combined >= activeThreshold } == true ? .supported : .unsupported)
            result.append(
                CitationReport.Sentence(
                    text: sentence.text, citations: sentence.citations, missing: missing, verdict: verdict,
                    score: best?.combined, similarity: best?.similarity, overlap: best?.overlap,
                    bestSource: best?.passage, snippet: best?.snippet))
        }
        return CitationReport(
            sentences: result, skipped: claims.count - checked.count, truncated: truncated,
            usedEmbedding: embedder != nil, threshold: activeThreshold)
    }

    /// The two measures of support (cosine of the closest window, nil without an embedder; the words'
    /// share) of each pair of `pairs` (indices into `sentences` and `passages`), for choosing the weights and
    /// thresholds on a labelled set (Benchmarks/verify.sh). Sentences and windows are embedded in one batch.
    public func measure(sentences: [String], passages: [String], pairs: [(sentence: Int, passage: Int)])
        async throws -> [(similarity: Double?, overlap: Double)]
    {
        let scorer = try await Scorer(verifier: self, sentences: sentences, passages: passages)
        return pairs.map {
            let score = scorer.score(sentence: $0.sentence, passage: $0.passage)
            return (score.similarity, score.overlap)
        }
    }

    /// The threshold in use: the combined score's with an embedder, the words' share's without.
    public var activeThreshold: Double { embedder == nil ? keywordThreshold : threshold }

    /// Whether a sentence without citations says something that needs a source: four content words or more,
    /// and not a lead-in (ending with ":") or a question.
    static func isClaim(_ text: String) -> Bool {
        guard let last = text.last, last != ":", last != "?" else { return false }
        return terms(text).count >= 4
    }
}

/// What `CitationVerifier` found: each claim of the answer with its verdict and scores. Values only: the
/// console renders them, through its cleaning of control characters (the sentences are the model's).
public struct CitationReport: Sendable, Hashable, Codable {
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// A passage it cites supports it.
        case supported
        /// It cites, but no passage it cites (that exists) supports it.
        case unsupported
        /// A claim that cites nothing.
        case uncited
    }

    public struct Sentence: Sendable, Hashable, Codable {
        /// The sentence, its citation markers taken out.
        public var text: String
        /// The numbers it cites, in order.
        public var citations: [Int]
        /// Those of `citations` that name no passage.
        public var missing: [Int]
        public var verdict: Verdict
        /// The combined score against the best passage (nil when there was no passage to score against).
        public var score: Double?
        /// The cosine against that passage's closest window (nil without an embedder).
        public var similarity: Double?
        /// The share of the sentence's content words found in that passage.
        public var overlap: Double?
        /// The number of the passage that scored best.
        public var bestSource: Int?
        /// That passage's window closest to the sentence.
        public var snippet: String?
    }

    public var sentences: [Sentence]
    /// Claims past `maxSentences`, not checked.
    public var skipped: Int
    /// Whether the answer was longer than `maxAnswerBytes` and only its start was read.
    public var truncated: Bool
    /// Whether meaning was scored (the built-in model), or the words alone.
    public var usedEmbedding: Bool
    public var threshold: Double

    /// The sentences flagged: unsupported or uncited.
    public var flagged: [Sentence] { sentences.filter { $0.verdict != .supported } }
    public var supportedCount: Int { sentences.count - flagged.count }
}
