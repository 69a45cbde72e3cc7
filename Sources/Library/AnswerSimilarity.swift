import Foundation

/// How alike two answers are, 0...1: the cosine of their all-MiniLM-L6-v2 embeddings (a long answer is the mean
/// of its pieces' unit vectors, since the model reads 256 tokens at most), or, without the model, the overlap of
/// their words (Jaccard over lower-cased words). Two empty answers have nothing to compare; one empty and one
/// not are unlike.
public struct AnswerSimilarity: Sendable {
    let embedder: (any Embedder)?

    /// `measure` names how the figures were made, for the report.
    public var measure: String {
        embedder == nil ? "word overlap (the built-in model is not installed)" : "all-MiniLM-L6-v2 cosine"
    }

    /// Whether the figures are the model's (else word overlap).
    public var usesModel: Bool { embedder != nil }

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

    /// The similarity of each pair, in order; nil for two answers with no words (nothing to compare).
    public func scores(_ pairs: [(String, String)]) async throws -> [Double?] {
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
            if span.0.isEmpty || span.1.isEmpty { return span.0.isEmpty && span.1.isEmpty ? nil : 0 }
            let a = Self.mean(span.0.map { vectors[$0] })
            let b = Self.mean(span.1.map { vectors[$0] })
            return max(0, min(1, LibraryStore.dot(a, b)))
        }
    }

    /// The answer's words in pieces of `pieceWords`, at most `maximumPieces` of them: the words are walked
    /// only as far as they are used, so a huge answer costs no more than its beginning.
    static func pieces(_ text: String) -> [String] {
        var pieces: [String] = []
        var words: [Substring] = []
        var rest = text[...]
        while pieces.count < maximumPieces {
            rest = rest.drop { $0.isWhitespace }
            guard !rest.isEmpty else { break }
            let word = rest.prefix { !$0.isWhitespace }
            words.append(word)
            rest = rest[word.endIndex...]
            if words.count == pieceWords {
                pieces.append(words.joined(separator: " "))
                words.removeAll(keepingCapacity: true)
            }
        }
        if !words.isEmpty, pieces.count < maximumPieces { pieces.append(words.joined(separator: " ")) }
        return pieces
    }

    /// The unit vector of the mean of the pieces' unit vectors.
    static func mean(_ vectors: [[Float]]) -> [Float] {
        guard var sum = vectors.first.map({ [Float](repeating: 0, count: $0.count) }) else { return [] }
        for vector in vectors.map(LibraryStore.unit) {
            for index in sum.indices where index < vector.count { sum[index] += vector[index] }
        }
        return LibraryStore.unit(sum)
    }

    static func wordOverlap(_ a: String, _ b: String) -> Double? {
        // The words of the first 6,400 words' worth, as the model reads.
        func words(_ text: String) -> Set<String> {
            Set(
                pieces(text).joined(separator: " ").lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                    .map(String.init))
        }
        let (x, y) = (words(a), words(b))
        if x.isEmpty && y.isEmpty { return nil }
        return Double(x.intersection(y).count) / Double(x.union(y).count)
    }
}
