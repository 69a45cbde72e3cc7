/// Bounds on what one file may cost the library, so that a hostile or broken document (a ZIP bomb, a PDF
/// of a million pages, a scan that takes OCR forever) is refused by name instead of taking the machine's
/// memory, time and disk. Each cap has a name (its key under `library:` in config.yaml and its flag), a
/// generous default for real documents, and the words that say how to raise it. A file past a cap is one
/// failed outcome (`LibraryError.cap` says which); the rest of the batch goes on.
public struct ResourceCaps: Sendable, Hashable {
    /// The inflated size of one ZIP member (a DOCX's `word/document.xml`), in bytes: checked against the
    /// size the archive declares before inflating, and counted while inflating (a header can lie).
    public var zipMemberBytes: Int
    /// The text extracted from one file, in bytes of UTF-8.
    public var textBytes: Int
    /// The chunks cut from one file.
    public var chunks: Int
    /// The pages of one PDF.
    public var pdfPages: Int
    /// The time OCR may take for one page (rendering it and reading it), or one image.
    public var ocrPageTime: Duration

    /// The defaults, and why each is large enough:
    /// - 256 MB per ZIP member: the `document.xml` of a 1,000-page report with tables is a few tens of MB;
    ///   a DOCX's images are other members, never inflated.
    /// - 32 MB of text: about 16,000 pages of prose (2,000 characters a page), more than any one book.
    /// - 20,000 chunks: at the default 1000/150 chunking, about 17 MB of text; a 2,000-page PDF of dense
    ///   prose makes about 7,000.
    /// - 2,000 pages per PDF: the size of large manuals and scanned archives; poppler is run once per page.
    /// - 60 s of OCR per page: tesseract reads a dense 300-dpi page in 2–10 s on one core.
    public static let defaultZIPMemberMB = 256
    public static let defaultTextMB = 32
    public static let defaultChunks = 20_000
    public static let defaultPDFPages = 2_000
    public static let defaultOCRPageSeconds = 60

    public init(
        zipMemberBytes: Int = defaultZIPMemberMB << 20, textBytes: Int = defaultTextMB << 20,
        chunks: Int = defaultChunks,
        pdfPages: Int = defaultPDFPages, ocrPageTime: Duration = .seconds(defaultOCRPageSeconds)
    ) {
        self.zipMemberBytes = zipMemberBytes
        self.textBytes = textBytes
        self.chunks = chunks
        self.pdfPages = pdfPages
        self.ocrPageTime = ocrPageTime
    }

    /// One cap by name: its key under config.yaml's `library:` (and in the session's `library.*`
    /// settings) and its command-line flag.
    public enum Cap: String, Sendable, Hashable, CaseIterable {
        case zipMember = "max_zip_member_mb"
        case text = "max_text_mb"
        case chunks = "max_chunks"
        case pdfPages = "max_pdf_pages"
        case ocrPageTime = "ocr_page_seconds"

        /// `library.max_text_mb`.
        public var key: String { "library.\(rawValue)" }
        /// `--max-text-mb`.
        public var flag: String { "--" + rawValue.replacingOccurrences(of: "_", with: "-") }
        /// What it bounds, in words.
        public var meaning: String {
            switch self {
            case .zipMember: "the inflated size of one ZIP member"
            case .text: "the text extracted from one file"
            case .chunks: "the chunks cut from one file"
            case .pdfPages: "the pages of one PDF"
            case .ocrPageTime: "the time OCR may take for one page"
            }
        }
    }

    /// The value of `cap` as the user sets it (`256 MB`, `20000 chunks`, `60 s`).
    public func describe(_ cap: Cap) -> String {
        func size(_ bytes: Int) -> String {
            bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
        }
        switch cap {
        case .zipMember: return size(zipMemberBytes)
        case .text: return size(textBytes)
        case .chunks: return "\(chunks) chunks"
        case .pdfPages: return "\(pdfPages) pages"
        case .ocrPageTime:
            let (seconds, attoseconds) = ocrPageTime.components
            return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
        }
    }

    /// The error for a file past `cap`: what happened (`what`), the cap's name and value, and how to raise it.
    public func refusal(_ cap: Cap, path: String, page: Int? = nil, _ what: String) -> LibraryError {
        LibraryError(
            path: path, page: page,
            "refused: \(what), past the cap \(cap.key) (\(cap.meaning): \(describe(cap))); raise it with \(cap.flag) or \(cap.key)",
            cap: cap)
    }
}
