import Foundation

/// BERT's uncased WordPiece tokenizer, as Hugging Face's `tokenizers` runs it from the model's
/// `tokenizer.json` (BertNormalizer, BertPreTokenizer, WordPiece, `[CLS] … [SEP]`): special tokens written in
/// the text are kept whole; then control characters are removed, CJK ideographs set apart, accents
/// stripped (NFD, nonspacing marks dropped) and letters lower-cased; words split at whitespace and
/// punctuation; each word cut greedily into the longest pieces the vocabulary has (`##` for a piece that
/// continues a word), `[UNK]` for a word that cannot be cut or is longer than 100 characters. Tested id
/// for id against that tokenizer on a corpus of awkward strings (Tests/LibraryTests/Fixtures/minilm).
public struct WordPieceTokenizer: Sendable {
    public let vocabulary: [String: Int32]
    public let maxLength: Int
    public let cls: Int32, sep: Int32, unknown: Int32, pad: Int32
    let specials: [(text: String, id: Int32)]
    static let maxWordCharacters = 100

    /// `vocab.txt`: one token per line, the line number is its id.
    public init(vocabularyFile path: String, maxLength: Int = 256) throws(EmbeddingError) {
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw EmbeddingError(path: path, "cannot read the vocabulary: \(error.localizedDescription)")
        }
        // Lines cut from the bytes (a String split costs twice as much; the vocabulary is read at every
        // command that embeds a query).
        var vocabulary: [String: Int32] = [:]
        vocabulary.reserveCapacity(32_768)
        var id: Int32 = 0
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let all = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < all.count {
                var end = start
                while end < all.count, all[end] != 10 { end += 1 }
                var last = end
                if last > start, all[last - 1] == 13 { last -= 1 }
                if last > start {
                    let token = String(decoding: UnsafeBufferPointer(rebasing: all[start..<last]), as: UTF8.self)
                    if vocabulary[token] == nil { vocabulary[token] = id }
                }
                id += 1
                start = end + 1
            }
        }
        try self.init(vocabulary: vocabulary, maxLength: maxLength, source: path)
    }

    public init(vocabulary: [String: Int32], maxLength: Int = 256, source: String? = nil) throws(EmbeddingError) {
        func id(_ token: String) throws(EmbeddingError) -> Int32 {
            guard let id = vocabulary[token] else {
                throw EmbeddingError(path: source, "the vocabulary has no \(token)")
            }
            return id
        }
        self.vocabulary = vocabulary
        self.maxLength = max(2, maxLength)
        cls = try id("[CLS]")
        sep = try id("[SEP]")
        unknown = try id("[UNK]")
        pad = try id("[PAD]")
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].compactMap { token in
            vocabulary[token].map { (token, $0) }
        }
    }

    /// The ids the model reads: `[CLS]`, the text's pieces (cut to fit `maxLength`), `[SEP]`.
    public func encode(_ text: String) -> [Int32] {
        var ids: [Int32] = [cls]
        let room = maxLength - 2
        for segment in splitSpecials(text) {
            switch segment {
            case .special(let id): ids.append(id)
            case .text(let text):
                for word in Self.words(Self.normalize(text)) {
                    appendPieces(of: word, to: &ids)
                    if ids.count > room { break }
                }
            }
            if ids.count > room { break }
        }
        if ids.count > room + 1 { ids.removeLast(ids.count - room - 1) }
        ids.append(sep)
        return ids
    }

    enum Segment {
        case text(Substring)
        case special(Int32)
    }

    /// The text cut around the special tokens written in it, which are tokens as they are.
    func splitSpecials(_ text: String) -> [Segment] {
        guard text.contains("[") else { return [.text(text[...])] }
        var segments: [Segment] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            let tail = rest[open...]
            if let special = specials.first(where: { tail.hasPrefix($0.text) }) {
                if open > rest.startIndex { segments.append(.text(rest[..<open])) }
                segments.append(.special(special.id))
                rest = tail.dropFirst(special.text.count)
            } else {
                segments.append(.text(rest[...open]))
                rest = rest[rest.index(after: open)...]
            }
        }
        if !rest.isEmpty { segments.append(.text(rest)) }
        return segments
    }

    /// Greedy longest-match-first pieces of one word.
    func appendPieces(of word: [Unicode.Scalar], to ids: inout [Int32]) {
        guard word.count <= Self.maxWordCharacters else {
            ids.append(unknown)
            return
        }
        var pieces: [Int32] = []
        var start = 0
        while start < word.count {
            var end = word.count
            var found: Int32?
            while start < end {
                var candidate = start > 0 ? "##" : ""
                candidate.unicodeScalars.append(contentsOf: word[start..<end])
                if let id = vocabulary[candidate] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else {
                ids.append(unknown)
                return
            }
            pieces.append(id)
            start = end
        }
        ids.append(contentsOf: pieces)
    }
}
