/// A document's text as an extractor read it: one string, and the segments chunks never cross (a PDF
/// page, a section under a heading), each with its page and heading path. Offsets count Unicode scalars,
/// as SQLite's `substr` does on text, so `substr(document.text, start + 1, end - start)` is a chunk's text.
public struct ExtractedDocument: Sendable, Hashable {
    public struct Segment: Sendable, Hashable {
        /// The page, from 1 (PDF); nil for types without pages.
        public var page: Int?
        /// The headings above this segment, outermost first.
        public var headings: [String]
        public var start: Int
        public var end: Int
    }

    public var text: String
    public var segments: [Segment]
    /// Pages in the document (PDF), or nil.
    public var pageCount: Int?
    /// The document's title when it names one (a Markdown `# Title`, HTML `<title>`, DOCX title).
    public var title: String?
    /// The pages read with OCR because they had no text layer (PDF).
    public var ocrPages: Set<Int> = []

    public init(text: String = "", segments: [Segment] = [], pageCount: Int? = nil, title: String? = nil) {
        self.text = text
        self.segments = segments
        self.pageCount = pageCount
        self.title = title
    }
}

/// Builds an `ExtractedDocument` piece by piece, keeping scalar offsets.
struct DocumentBuilder {
    private(set) var text = ""
    private(set) var segments: [ExtractedDocument.Segment] = []
    private var length = 0
    private var open: (page: Int?, headings: [String], start: Int)?

    /// Starts a new segment (ending the one before) with this page and heading path.
    mutating func begin(page: Int?, headings: [String]) {
        end()
        if length > 0, !text.hasSuffix("\n\n") { append(text.hasSuffix("\n") ? "\n" : "\n\n") }
        open = (page, headings, length)
    }

    /// Gives the open segment another heading path (HTML learns a heading's text after its section opened).
    mutating func relabel(headings: [String]) {
        open?.headings = headings
    }

    mutating func append(_ piece: String) {
        if open == nil { open = (nil, [], length) }
        text += piece
        length += piece.unicodeScalars.count
    }

    /// Ends the open segment; an empty or blank one is dropped.
    mutating func end() {
        guard let open else { return }
        self.open = nil
        var start = open.start
        var stop = length
        let scalars = Array(text.unicodeScalars.suffix(length - start))
        var head = 0
        while head < scalars.count, scalars[head].properties.isWhitespace { head += 1 }
        var tail = scalars.count
        while tail > head, scalars[tail - 1].properties.isWhitespace { tail -= 1 }
        guard tail > head else { return }
        start += head
        stop = open.start + tail
        segments.append(.init(page: open.page, headings: open.headings, start: start, end: stop))
    }

    mutating func build(pageCount: Int? = nil, title: String? = nil) -> ExtractedDocument {
        end()
        return ExtractedDocument(text: text, segments: segments, pageCount: pageCount, title: title)
    }
}
