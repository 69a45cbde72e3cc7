/// Cuts a document's segments into chunks: a recursive splitter that cuts at the strongest boundary that
/// fits (paragraph, line, sentence, word, and only then anywhere), never across a segment (a page, a
/// section), with `overlap` characters of the chunk before repeated at the start of the next, starting
/// at a word. The one exception: a paragraph that runs on from a PDF page onto the next is also kept whole
/// as a chunk of its own across the break (`bridge`), beside the pages' own chunks. Sizes count characters (Unicode scalars). The defaults (1,000 and 150) are sized for the
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
        /// The next page, for a paragraph that runs on from `page` onto it (see `bridge`); else nil.
        public var endPage: Int?

        public init(
            ordinal: Int, page: Int?, headings: [String], start: Int, end: Int, text: String, endPage: Int? = nil
        ) {
            self.ordinal = ordinal
            self.page = page
            self.headings = headings
            self.start = start
            self.end = end
            self.text = text
            self.endPage = endPage
        }
    }

    /// Boundaries, strongest first: each is a sequence of scalars a piece may end with.
    static let boundaries: [[Unicode.Scalar]] = [["\n", "\n"], ["\n"], [".", " "], ["?", " "], ["!", " "], [" "]]

    public func chunks(of document: ExtractedDocument) -> [Chunk] {
        chunks(of: document, atMost: .max) ?? []
    }

    /// The chunks, or nil as soon as there would be more than `limit` (the chunks cap: the rest is not cut).
    public func chunks(of document: ExtractedDocument, atMost limit: Int) -> [Chunk]? {
        let scalars = Array(document.text.unicodeScalars)
        var result: [Chunk] = []
        for (index, segment) in document.segments.enumerated() {
            if result.count > limit { return nil }
            defer {
                // A paragraph that runs on onto the next page is one more chunk, across the page break.
                if index + 1 < document.segments.count,
                    let bridge = bridge(scalars, segment, document.segments[index + 1])
                {
                    result.append(
                        Chunk(
                            ordinal: result.count, page: segment.page, headings: segment.headings,
                            start: bridge.lowerBound,
                            end: bridge.upperBound, text: Self.text(scalars, bridge),
                            endPage: document.segments[index + 1].page))
                }
            }
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
                result.append(
                    Chunk(
                        ordinal: result.count, page: segment.page, headings: segment.headings, start: range.lowerBound,
                        end: range.upperBound, text: Self.text(scalars, range)))
                previousEnd = piece.upperBound
                if result.count > limit { return nil }
            }
        }
        return result.count > limit ? nil : result
    }

    /// Pieces of at most `size` covering `range`, cut at the strongest boundary that makes them fit.
    func split(_ scalars: [Unicode.Scalar], _ range: Range<Int>, level: Int) -> [Range<Int>] {
        if range.count <= size { return [range] }
        guard level < Self.boundaries.count else {
            return stride(from: range.lowerBound, to: range.upperBound, by: size).map {
                $0..<min($0 + size, range.upperBound)
            }
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
                if let open = current {
                    result.append(open)
                    current = nil
                }
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

    static func text(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
    }

    func trimmed(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        return lower..<upper
    }
}
