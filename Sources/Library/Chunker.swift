/// Cuts a document's segments into chunks: a recursive splitter that cuts at the strongest boundary that
/// fits (paragraph, line, sentence, word, and only then anywhere), never across a segment (a page, a
/// section), with `overlap` characters of the chunk before repeated at the start of the next, starting
/// at a word. Sizes count characters (Unicode scalars). The defaults (1,000 and 150) are sized for the
/// embedding model to come: 1,000 characters of English prose are about 200 to 250 WordPiece tokens, within
/// the 256 all-MiniLM-L6-v2 reads. They have not yet been compared on a retrieval benchmark with labelled
/// questions (see Docs/library.md); `library.chunk_size` and `library.chunk_overlap` change them.
public struct Chunker: Sendable, Hashable {
    public var size: Int
    public var overlap: Int

    public init(size: Int = 1000, overlap: Int = 150) {
        self.size = max(50, size)
        self.overlap = max(0, min(overlap, size / 2))
    }

    /// The settings as the library records them with a document ("1000/150"): adding the document again
    /// with other settings re-cuts it.
    public var signature: String { "\(size)/\(overlap)" }

    public struct Chunk: Sendable, Hashable {
        public var ordinal: Int
        public var page: Int?
        public var headings: [String]
        public var start: Int
        public var end: Int
        public var text: String

        public init(ordinal: Int, page: Int?, headings: [String], start: Int, end: Int, text: String) {
            self.ordinal = ordinal
            self.page = page
            self.headings = headings
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// Boundaries, strongest first: each is a sequence of scalars a piece may end with.
    static let boundaries: [[Unicode.Scalar]] = [["\n", "\n"], ["\n"], [".", " "], ["?", " "], ["!", " "], [" "]]

    public func chunks(of document: ExtractedDocument) -> [Chunk] {
        let scalars = Array(document.text.unicodeScalars)
        var result: [Chunk] = []
        for segment in document.segments {
            var previousEnd: Int?
            for piece in split(scalars, segment.start..<segment.end, level: 0) {
                var start = piece.lowerBound
                if let previousEnd, overlap > 0 {
                    // Reach back into the chunk before, to a word's start.
                    var back = max(segment.start, previousEnd - overlap)
                    while back < start, back > segment.start, !scalars[back - 1].properties.isWhitespace { back += 1 }
                    start = min(back, start)
                }
                let range = trimmed(scalars, start..<piece.upperBound)
                guard !range.isEmpty else { continue }
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[range])
                result.append(Chunk(
                    ordinal: result.count, page: segment.page, headings: segment.headings, start: range.lowerBound,
                    end: range.upperBound, text: String(view)))
                previousEnd = piece.upperBound
            }
        }
        return result
    }

    /// Pieces of at most `size` covering `range`, cut at the strongest boundary that makes them fit.
    func split(_ scalars: [Unicode.Scalar], _ range: Range<Int>, level: Int) -> [Range<Int>] {
        if range.count <= size { return [range] }
        guard level < Self.boundaries.count else {
            return stride(from: range.lowerBound, to: range.upperBound, by: size).map { $0..<min($0 + size, range.upperBound) }
        }
        let boundary = Self.boundaries[level]
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index + boundary.count <= range.upperBound {
            if scalars[index] == boundary[0], boundary.count == 1 || scalars[index + 1] == boundary[1] {
                index += boundary.count
                pieces.append(start..<index)
                start = index
            } else {
                index += 1
            }
        }
        if start < range.upperBound { pieces.append(start..<range.upperBound) }
        var result: [Range<Int>] = []
        var current: Range<Int>?
        for piece in pieces {
            if piece.count > size {
                if let open = current { result.append(open); current = nil }
                result += split(scalars, piece, level: level + 1)
            } else if let open = current, open.count + piece.count <= size {
                current = open.lowerBound..<piece.upperBound
            } else {
                if let open = current { result.append(open) }
                current = piece
            }
        }
        if let open = current { result.append(open) }
        return result
    }

    func trimmed(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        return lower..<upper
    }
}
