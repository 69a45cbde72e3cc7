import Foundation

/// Retrieval: the ranking every search goes through, with the library's own embedder.
extension LibraryService {
    /// The ranking searches use, with the library's own embedder; when that cannot run (the model is not
    /// installed, no server), a retriever that says so and searches by keywords.
    public func retriever() async throws -> Retriever {
        guard let identifier = try await store.embedder(), let spec = try? EmbedderSpec(parsing: identifier) else {
            // No vectors yet: say why, when there are passages a vector search would have ranked.
            guard (options.embedder ?? .minilm) != .none, try await store.statistics().chunks > 0 else {
                return Retriever(store: store, embedder: nil)
            }
            if options.embedder ?? .minilm == .minilm, !modelInstalled {
                return Retriever(
                    store: store, embedder: nil,
                    unavailable:
                        "semantic search needs all-MiniLM-L6-v2, not installed in \(modelFolder) (scripts/install-model.sh installs it)"
                )
            }
            return Retriever(
                store: store, embedder: nil,
                unavailable: "the library has no vectors yet (openresponses library reembed computes them)")
        }
        guard spec != .none else { return Retriever(store: store, embedder: nil) }
        do {
            return Retriever(store: store, embedder: try await embedder(spec))
        } catch {
            return Retriever(
                store: store, embedder: nil, unavailable: "semantic search is unavailable: \(error.message)")
        }
    }

    /// The best `k` passages for `query` in the library's ranking (`library.search_mode`, else hybrid when
    /// the library has vectors). Keyword search loads no embedder (the model costs 14 ms of a command).
    public func search(
        _ query: String, k: Int, filter: LibraryStore.SearchFilter = .init()
    ) async throws -> Retriever.Result {
        if options.searchMode == .keyword {
            return try await Retriever(store: store, embedder: nil).search(
                query, k: k, filter: filter, mode: .keyword)
        }
        return try await retriever().search(query, k: k, filter: filter, mode: options.searchMode)
    }
}
