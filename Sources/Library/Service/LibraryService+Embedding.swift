import Foundation
import ResponsesAPI

/// How a run of the embedder over the passages without vectors went.
public enum EmbeddingRun: Sendable, Hashable {
    /// No embedder (`none`), nothing to do.
    case notNeeded
    /// The embedder cannot run here (the model is not installed, no server): the documents stay added,
    /// search uses keywords.
    case unavailable(String)
    /// `count` passages embedded (0 when none lacked a vector), in `seconds`.
    case embedded(count: Int, seconds: Double)
}

/// The library's vectors: computing the missing ones after `add`, and `reembed`.
extension LibraryService {
    /// Computes the vectors the library lacks with `spec`; `progress` hears (done, total). Stopping partway
    /// (an embedder's error) throws, and what was embedded is kept.
    public func embedMissing(
        _ spec: EmbedderSpec, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(LibraryServiceError) -> EmbeddingRun {
        guard spec != .none else { return .notNeeded }
        let embedder: any Embedder
        do {
            guard let made = try await self.embedder(spec) else { return .notNeeded }
            embedder = made
        } catch {
            return .unavailable(error.message)
        }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let count = try await store.embedMissing(with: embedder, progress: progress)
            let elapsed = clock.now - started
            return .embedded(
                count: count,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        } catch {
            let message = (error as? any UserFacingError)?.userMessage ?? "\(error)"
            throw LibraryServiceError(
                "embedding with \(spec) stopped: \(message); what was embedded is kept, library reembed goes on")
        }
    }

    /// The embedder `library reembed` switches the library to: the one asked for, else the library's own
    /// (after its vectors were dropped, the built-in model again), else minilm.
    public func embedderForReembedding() async throws -> EmbedderSpec {
        let current = try await currentEmbedder()
        return options.embedder ?? (current == EmbedderSpec.none ? nil : current) ?? .minilm
    }

    /// What `library reembed` did: vectors dropped, or the new embedder's coverage.
    public enum Reembedding: Sendable, Hashable {
        case dropped(Int)
        /// Interrupted while embedding: what was embedded is kept, nothing was dropped.
        case interrupted
        case switched(EmbedderSpec, run: EmbeddingRun, embedded: Int, dropped: Int)
    }

    /// `library reembed`: vectors for every passage from `spec`, which becomes the library's; the other
    /// embedders' vectors are dropped (`none` drops them all). An embedder that cannot run is an error
    /// here (nothing else would happen).
    public func reembed(
        _ spec: EmbedderSpec, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Reembedding {
        if spec == .none {
            let dropped = try await store.pruneVectors(keeping: nil)
            try await store.setEmbedder(EmbedderSpec.none.description)
            await store.settle()
            return .dropped(dropped)
        }
        if case .minilm = spec, !modelInstalled { throw LibraryServiceError(modelMissing, exitStatus: .usage) }
        let run = try await embedMissing(spec, progress: progress)
        if case .unavailable(let reason) = run {
            throw LibraryServiceError("passages not embedded: \(reason)")
        }
        guard !Task.isCancelled else { return .interrupted }
        let dropped = try await store.pruneVectors(keeping: spec.description)
        await store.settle()
        let coverage = try await store.vectorCoverage(embedder: spec.description)
        return .switched(spec, run: run, embedded: coverage.embedded, dropped: dropped)
    }
}
