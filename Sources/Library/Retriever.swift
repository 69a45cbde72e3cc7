import Embeddings
import Foundation

/// The library's ranking, as `library search`, `library ask`, `/library` and `/doc` use it: keyword (BM25
/// over FTS5), semantic (the cosine of the query's vector with every chunk's, exact, over one matrix
/// loaded per search) or hybrid (both, fused by reciprocal rank: a passage scores Σ weight / (k + rank)
/// over the rankings that found it). The query is embedded by the embedder the library's vectors came
/// from, never another.
public struct Retriever: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case hybrid, keyword, semantic
    }

    /// Reciprocal rank fusion's constants, chosen on Benchmarks/retrieval (Docs/library.md gives the
    /// figures): `k` damps the top ranks' lead, the weights trust one ranking more than the other, and
    /// each ranking contributes its best `depth` passages.
    public struct Fusion: Sendable, Hashable {
        public var k: Double = 60
        public var keywordWeight: Double = 1
        public var semanticWeight: Double = 1
        public var depth: Int = 50

        public init() {}
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
        let depth = mode == .semantic ? k : max(k, fusion.depth)
        async let keyword = mode == .hybrid ? store.search(query, k: depth, filter: filter) : []
        let semantic = try await semanticRanking(query, k: depth, filter: filter, embedder: embedder)
        if mode == .semantic {
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
        return Result(hits: try await fuse(keyword: try await keyword, semantic: semantic, k: k), mode: .hybrid)
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
