import Foundation

/// How alike two answers are, 0...1: the cosine of their all-MiniLM-L6-v2 embeddings (a long answer is the mean
/// of its pieces' unit vectors, since the model reads 256 tokens at most), or, without the model, the overlap of
/// their words (Jaccard over lower-cased words). Two empty answers are alike; one empty and one not are not.
public struct AnswerSimilarity: Sendable {
    let embedder: (any Embedder)?

    /// `measure` names how the figures were made, for the report.
    public var measure: String {
        embedder == nil ? "word overlap (the built-in model is not installed)" : "all-MiniLM-L6-v2 cosine"
    }

    public init(embedder: (any Embedder)?) {
        self.embedder = embedder
    }

    /// The built-in model from `modelFolder` when it is installed, else word overlap.
    public static func builtIn(modelFolder: String) -> AnswerSimilarity {
        guard FileManager.default.fileExists(atPath: modelFolder + "/model.safetensors"),
            let embedder = try? MiniLMEmbedder.shared(folder: modelFolder)
        else { return AnswerSimilarity(embedder: nil) }
        return AnswerSimilarity(embedder: embedder)
    }

    /// Words a piece holds: about 200, under the model's 256 tokens.
    static let pieceWords = 200
    /// At most this many pieces of an answer are read (about 6,400 words): a hostile answer cannot make the
    /// comparison embed megabytes.
    static let maximumPieces = 32

    /// The similarity of each pair, in order.
    public func scores(_ pairs: [(String, String)]) async throws -> [Double] {
        guard let embedder else { return pairs.map { Self.wordOverlap($0.0, $0.1) } }
        var pieces: [String] = []
        var spans: [(Range<Int>, Range<Int>)] = []
        for (a, b) in pairs {
            let first = pieces.count
            pieces += Self.pieces(a)
            let middle = pieces.count
            pieces += Self.pieces(b)
            spans.append((first..<middle, middle..<pieces.count))
        }
        let vectors = try await embedder.embed(pieces)
        return zip(pairs, spans).map { pair, span in
            if span.0.isEmpty || span.1.isEmpty { return span.0.isEmpty && span.1.isEmpty ? 1 : 0 }
            let a = Self.mean(span.0.map { vectors[$0] })
            let b = Self.mean(span.1.map { vectors[$0] })
            return max(0, min(1, Double(zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 })))
        }
    }

    static func pieces(_ text: String) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        return stride(from: 0, to: min(words.count, pieceWords * maximumPieces), by: pieceWords).map {
            words[$0..<min(words.count, $0 + pieceWords)].joined(separator: " ")
        }
    }

    /// The unit vector of the mean of the pieces' unit vectors.
    static func mean(_ vectors: [[Float]]) -> [Float] {
        guard var sum = vectors.first.map({ [Float](repeating: 0, count: $0.count) }) else { return [] }
        for vector in vectors {
            let norm = max(vector.reduce(0) { $0 + $1 * $1 }.squareRoot(), 1e-12)
            for index in sum.indices where index < vector.count { sum[index] += vector[index] / norm }
        }
        let norm = max(sum.reduce(0) { $0 + $1 * $1 }.squareRoot(), 1e-12)
        return sum.map { $0 / norm }
    }

    static func wordOverlap(_ a: String, _ b: String) -> Double {
        func words(_ text: String) -> Set<String> {
            Set(text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        }
        let (x, y) = (words(a), words(b))
        if x.isEmpty && y.isEmpty { return 1 }
        return Double(x.intersection(y).count) / Double(x.union(y).count)
    }
}
