import Foundation
import ResponsesAPI

/// The document library's options: the built-in defaults, under the config file's `library:` section (or
/// the console's settings, with their preset and `/set`), under a command's flags. Read from a settings
/// bag here, so every front end reads the `library.*` keys the same way.
public struct LibraryOptions: Sendable, Hashable {
    public var chunker = Chunker()
    public var ocr = true
    public var passages = 5
    /// `library.embedder` when set (nil: the library's own, else `minilm`).
    public var embedder: EmbedderSpec?
    /// `library.model_dir`: where all-MiniLM-L6-v2's files are (nil: the data directory's models/).
    public var modelDirectory: String?
    /// `library.search_mode` (nil: hybrid when the library has vectors, else keyword).
    public var searchMode: Retriever.Mode?
    /// What one file may cost (`library.max_zip_member_mb`, `max_text_mb`, `max_chunks`, `max_pdf_pages`,
    /// `ocr_page_seconds`).
    public var caps = ResourceCaps()

    public init() {}

    /// Where all-MiniLM-L6-v2's files are: `library.model_dir`, else the data directory's models/.
    public func modelFolder(dataDirectory: URL) -> String {
        modelDirectory ?? dataDirectory.appendingPathComponent("models/" + MiniLMEmbedder.folderName).path
    }

    /// The options a settings bag (`TurnSettings.library`, `ConfigFile.library`) gives, over the defaults;
    /// `source` names where the values came from in the error when chunk_overlap is too large.
    public init(_ library: JSONObject, source: String) throws(LibraryServiceError) {
        let size = library["chunk_size"]?.intValue ?? chunker.size
        let overlap = library["chunk_overlap"]?.intValue ?? min(chunker.overlap, size / 2)
        try Self.check(size: size, overlap: overlap, source: source)
        chunker = Chunker(size: size, overlap: overlap)
        ocr = library["ocr"]?.boolValue ?? ocr
        passages = library["passages"]?.intValue ?? passages
        if let text = library["embedder"]?.stringValue {
            do { embedder = try EmbedderSpec(parsing: text) } catch {
                throw LibraryServiceError("library.embedder: \(error.message); from \(source)", exitStatus: .usage)
            }
        }
        modelDirectory = library["model_dir"]?.stringValue.map { ($0 as NSString).expandingTildeInPath }
        if let text = library["search_mode"]?.stringValue {
            guard let mode = Retriever.Mode(rawValue: text) else {
                throw LibraryServiceError(
                    "library.search_mode must be hybrid, keyword or semantic (got \(text)); from \(source)",
                    exitStatus: .usage)
            }
            searchMode = mode
        }
        caps = try Self.caps(library, source: source)
    }

    /// The resource caps a settings bag sets, over their defaults; each a whole number, 1 or more.
    static func caps(_ library: JSONObject, source: String) throws(LibraryServiceError) -> ResourceCaps {
        func value(_ cap: ResourceCaps.Cap) throws(LibraryServiceError) -> Int? {
            guard let raw = library[cap.rawValue] else { return nil }
            guard let number = raw.intValue, number >= 1 else {
                throw LibraryServiceError(
                    "\(cap.key) must be a whole number, 1 or more (got \(raw.compactString)); from \(source)",
                    exitStatus: .usage)
            }
            // Megabytes in bytes, and seconds as a Duration, without overflowing.
            return min(number, Int.max >> 21)
        }
        var caps = ResourceCaps()
        if let megabytes = try value(.zipMember) { caps.zipMemberBytes = megabytes << 20 }
        if let megabytes = try value(.text) { caps.textBytes = megabytes << 20 }
        if let count = try value(.chunks) { caps.chunks = count }
        if let count = try value(.pdfPages) { caps.pdfPages = count }
        if let seconds = try value(.ocrPageTime) { caps.ocrPageTime = .seconds(seconds) }
        return caps
    }

    /// An overlap of more than half a chunk would make every chunk mostly the one before.
    public static func check(size: Int, overlap: Int, source: String) throws(LibraryServiceError) {
        guard overlap <= size / 2 else {
            throw LibraryServiceError(
                "library.chunk_overlap (\(overlap)) must be at most half of library.chunk_size (\(size)); from \(source)",
                exitStatus: .usage)
        }
    }
}
