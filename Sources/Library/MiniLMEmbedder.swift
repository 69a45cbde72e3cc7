import Embeddings
import Foundation
import ResponsesAPI
import Synchronization

/// The built-in embedder: all-MiniLM-L6-v2 from the model folder, run on this machine's cores. A batch is
/// cut in two halves (longest texts dealt alternately, so the halves cost alike) encoded side by side, each
/// with one OpenBLAS thread: on two cores 22.3 chunks of 256 tokens a second against 18.6 with OpenBLAS
/// threading one encoder (Benchmarks/library.sh), which is why the serial OpenBLAS is looked for first. Each half
/// runs on a thread of its own, not the task pool's.
public struct MiniLMEmbedder: Embedder {
    public let model: MiniLMModel
    public var identifier: String { "minilm" }
    public var threads: Int

    public init(model: MiniLMModel, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.model = model
        self.threads = max(1, min(threads, 8))
    }

    /// Loads the model from `folder`; a missing or damaged model is an error that says how to install it.
    public init(folder: String) throws(LibraryError) {
        do {
            self.init(model: try MiniLMModel(folder: folder))
        } catch {
            throw LibraryError(
                path: folder,
                "the MiniLM model cannot be loaded (\(error.message)); scripts/install-model.sh installs it")
        }
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let model = self.model
        let parts = min(threads, texts.count)
        MiniLMModel.setBLASThreads(1)
        if parts == 1 { return await OwnThread.run { model.embed(texts) } }
        let order = texts.indices.sorted { texts[$0].utf8.count > texts[$1].utf8.count }
        let shares = (0..<parts).map { part in stride(from: part, to: order.count, by: parts).map { order[$0] } }
        let results = await withTaskGroup(of: (Int, [[Float]]).self) { group in
            for (part, share) in shares.enumerated() {
                let slice = share.map { texts[$0] }
                group.addTask { (part, await OwnThread.run { model.embed(slice) }) }
            }
            var results = [[[Float]]](repeating: [], count: parts)
            for await (part, vectors) in group { results[part] = vectors }
            return results
        }
        var vectors = [[Float]](repeating: [], count: texts.count)
        for (share, encoded) in zip(shares, results) {
            for (index, vector) in zip(share, encoded) { vectors[index] = vector }
        }
        return vectors
    }
}

extension MiniLMEmbedder {
    public static let folderName = "all-MiniLM-L6-v2"
    private static let loaded = Mutex<[String: MiniLMModel]>([:])

    /// The model of `folder`, loaded once per process (the console's turns search again and again).
    public static func shared(folder: String) throws(LibraryError) -> MiniLMEmbedder {
        if let model = loaded.withLock({ $0[folder] }) { return MiniLMEmbedder(model: model) }
        let embedder = try MiniLMEmbedder(folder: folder)
        loaded.withLock { $0[folder] = embedder.model }
        return embedder
    }
}
