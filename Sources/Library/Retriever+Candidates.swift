/// What hybrid search fuses, gathered once: both rankings, what the query's words say, and the language of
/// each passage the semantic ranking found.
extension Retriever {
    public struct Candidates: Sendable {
        public var keyword: [Candidate]
        public var semantic: [Candidate]
        public var signals: QuerySignals
        /// The semantic ranking's passages whose language was told (only when the query is in English or too
        /// short to tell, and `fusion.adaptive`).
        public var languages: [Int64: TextLanguage]
    }

    /// Both rankings to `depth` (ids and scores: passages are read only for the hits kept), the keyword
    /// ranking and the query's signals read while the query is embedded.
    public func candidates(
        _ query: String, filter: LibraryStore.SearchFilter = .init(), embedder: any Embedder, depth: Int
    ) async throws -> Candidates {
        async let keyword = store.keywordRanking(query, k: depth, filter: filter)
        async let signals = signals(of: query)
        let semantic = try await semanticRanking(query, k: depth, filter: filter, embedder: embedder).map {
            Candidate(id: $0.id, score: Double($0.score))
        }
        let told = try await signals
        var languages: [Int64: TextLanguage] = [:]
        if fusion.adaptive, told.language == nil || told.language == .english {
            for (id, text) in try await store.passageTexts(semantic.map(\.id)) {
                if let language = TextLanguage.guess(text, limit: 1_000) { languages[id] = language }
            }
        }
        return Candidates(keyword: try await keyword, semantic: semantic, signals: told, languages: languages)
    }

    /// What the query's words say: phrases, identifiers and language from its text, and which of its words
    /// few passages hold (counted in the library, each only up to the rare limit).
    public func signals(of query: String) async throws -> QuerySignals {
        var signals = QuerySignals(text: query)
        guard fusion.adaptive else { return signals }
        let terms = FTSQuery.searched(FTSQuery.terms(query)).filter { $0.words.count == 1 && !$0.prefix }
        guard !terms.isEmpty else { return signals }
        let limit = fusion.rareLimit(passages: try await store.passageCount())
        guard limit > 0 else { return signals }
        let counts = try await store.passageCounts(of: terms, upTo: limit)
        signals.rareTerms = zip(terms, counts).filter { $0.1 > 0 && $0.1 <= limit }.map {
            QuerySignals.RareTerm(term: $0.0.words[0], passages: $0.1)
        }
        return signals
    }
}
