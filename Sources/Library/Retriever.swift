import Embeddings
import Foundation

/// The library's ranking, as `library search`, `library ask`, `/library` and `/doc` use it: keyword (BM25
/// over FTS5), semantic (the cosine of the query's vector with every chunk's, exact, over one matrix
/// loaded per search) or hybrid (both, fused by `Fusion`: each ranking's scores scaled by its best and
/// weighed, the weights moved by the query's exact terms and language). The query is embedded by the
/// embedder the library's vectors came from, never another.
public struct Retriever: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case hybrid, keyword, semantic
    }

    /// What a search found, how it ranked (the mode used), and a note when it could not rank as asked.
    public struct Result: Sendable {
        public var hits: [SearchHit]
        public var mode: Mode
        public var notice: String?
    }

    public let store: LibraryStore
    /// The library's embedder, loaded; nil when the library has no vectors or its embedder cannot run here.
    public let embedder: (any Embedder)?
    /// Why there is no embedder although the library has vectors (for example the model is not installed).
    public let unavailable: String?
    public var fusion = Fusion()

    public init(store: LibraryStore, embedder: (any Embedder)?, unavailable: String? = nil) {
        self.store = store
        self.embedder = embedder
        self.unavailable = unavailable
    }

    /// The best `k` passages; `mode` nil means hybrid when there are vectors, else keyword.
    public func search(
        _ query: String, k: Int, filter: LibraryStore.SearchFilter = .init(), mode: Mode? = nil
    ) async throws -> Result {
        guard let embedder else {
            if let unavailable, mode != .keyword {
                return Result(
                    hits: try await store.search(query, k: k, filter: filter), mode: .keyword,
                    notice: "\(unavailable): searching by keywords")
            }
            if mode == .semantic || mode == .hybrid {
                throw LibraryServiceError(
                    "the library has no vectors for \(mode!.rawValue) search: openresponses library reembed --embedder minilm computes them",
                    exitStatus: .usage)
            }
            return Result(hits: try await store.search(query, k: k, filter: filter), mode: .keyword)
        }
        let mode = mode ?? .hybrid
        if mode == .keyword { return Result(hits: try await store.search(query, k: k, filter: filter), mode: .keyword) }
        if mode == .semantic {
            let semantic = try await semanticRanking(query, k: k, filter: filter, embedder: embedder)
            let hits = try await store.hits(chunkIDs: semantic.map(\.id))
            return Result(
                hits: zip(hits, semantic).enumerated().map { rank, pair in
                    var hit = pair.0
                    hit.score = Double(pair.1.score)
                    hit.semanticRank = rank + 1
                    hit.semanticScore = Double(pair.1.score)
                    return hit
                }, mode: .semantic)
        }
        let found = try await candidates(query, filter: filter, embedder: embedder, depth: max(k, fusion.depth))
        let kept = Array(
            fuse(keyword: found.keyword, semantic: found.semantic, signals: found.signals, languages: found.languages)
                .prefix(k))
        // The kept passages: highlighted where the keyword ranking found them, their opening otherwise.
        var passages = try await store.highlighted(query, ids: kept.filter { $0.explanation.keyword != nil }.map(\.id))
        for hit in try await store.hits(chunkIDs: kept.map(\.id).filter { passages[$0] == nil }) {
            passages[hit.chunkID] = hit
        }
        return Result(
            hits: kept.compactMap { fused in
                guard var hit = passages[fused.id] else { return nil }
                hit.score = fused.score
                hit.keywordRank = fused.explanation.keyword?.rank
                hit.keywordScore = fused.explanation.keyword?.score
                hit.semanticRank = fused.explanation.semantic?.rank
                hit.semanticScore = fused.explanation.semantic?.score
                hit.explanation = fused.explanation
                return hit
            }, mode: .hybrid)
    }

    /// The chunks nearest the query's vector: (chunk id, cosine), best first. The vectors come from the
    /// memory-mapped file beside the library when it is of the library's generation and embedder; else
    /// from the database, and the file is written again for the next search (best effort: a read-only
    /// folder only costs the next search the same load).
    func semanticRanking(
        _ query: String, k: Int, filter: LibraryStore.SearchFilter, embedder: any Embedder
    ) async throws -> [(id: Int64, score: Float)] {
        async let embedded = embedder.embed([query])
        let allowed = filter.document == nil && filter.type == nil ? nil : try await store.chunkIDs(filter)
        let (generation, library) = try await store.vectorGeneration()
        let key = embedder.identifier + "@" + library
        let vector = LibraryStore.unit(try await embedded.first ?? [])
        let accepts = allowed.map { set in { @Sendable (id: Int64) in set.contains(id) } }
        if let file = try? VectorFile(path: store.vectorFilePath), file.generation == generation, file.embedder == key {
            try check(vector, against: file.dimensions, embedder: embedder)
            return file.nearest(vector, k: k, allowed: accepts)
        }
        guard let matrix = try await store.vectorMatrix(embedder: embedder.identifier) else { return [] }
        try? VectorFile.write(matrix, embedder: key, generation: generation, to: store.vectorFilePath)
        try check(vector, against: matrix.dimensions, embedder: embedder)
        return matrix.nearest(vector, k: k, allowed: accepts).map { (id: $0.id, score: $0.score) }
    }

    func check(_ vector: [Float], against dimensions: Int, embedder: any Embedder) throws {
        guard vector.count == dimensions else {
            throw LibraryServiceError(
                "the query's vector has \(vector.count) values, the library's \(dimensions) (\(embedder.identifier)): openresponses library reembed computes them again"
            )
        }
    }
}
