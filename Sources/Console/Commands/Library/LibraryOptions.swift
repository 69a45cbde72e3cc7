import Foundation
import Library
import ResponsesAPI
import Workbench

/// The document library's options as a command uses them: the built-in defaults, under the config
/// file's `library:` section (or the console's settings, with their preset and `/set`), under the
/// command's flags.
struct LibraryOptions: Sendable, Hashable {
    var chunker = Chunker()
    var ocr = true
    var passages = 5
    /// `library.embedder` when set (nil: the library's own, else `minilm`).
    var embedder: EmbedderSpec?
    /// `library.model_dir`: where all-MiniLM-L6-v2's files are (nil: the data directory's models/).
    var modelDirectory: String?
    /// `library.search_mode` (nil: hybrid when the library has vectors, else keyword).
    var searchMode: Retriever.Mode?
    /// What one file may cost (`library.max_zip_member_mb`, `max_text_mb`, `max_chunks`, `max_pdf_pages`,
    /// `ocr_page_seconds`).
    var caps = ResourceCaps()

    init() {}

    /// The options a settings bag (`TurnSettings.library`, `ConfigFile.library`) gives, over the defaults;
    /// `source` names where the values came from in the error when chunk_overlap is too large.
    init(_ library: JSONObject, source: String) throws(ConsoleError) {
        let size = library["chunk_size"]?.intValue ?? chunker.size
        let overlap = library["chunk_overlap"]?.intValue ?? min(chunker.overlap, size / 2)
        try Self.check(size: size, overlap: overlap, source: source)
        chunker = Chunker(size: size, overlap: overlap)
        ocr = library["ocr"]?.boolValue ?? ocr
        passages = library["passages"]?.intValue ?? passages
        if let text = library["embedder"]?.stringValue {
            do { embedder = try EmbedderSpec(parsing: text) } catch {
                throw ConsoleError("library.embedder: \(error.message); from \(source)")
            }
        }
        modelDirectory = library["model_dir"]?.stringValue.map { ($0 as NSString).expandingTildeInPath }
        if let text = library["search_mode"]?.stringValue {
            guard let mode = Retriever.Mode(rawValue: text) else {
                throw ConsoleError(
                    "library.search_mode must be hybrid, keyword or semantic (got \(text)); from \(source)")
            }
            searchMode = mode
        }
        caps = try Self.caps(library, source: source)
    }

    /// The resource caps a settings bag sets, over their defaults; each a whole number, 1 or more.
    static func caps(_ library: JSONObject, source: String) throws(ConsoleError) -> ResourceCaps {
        func value(_ cap: ResourceCaps.Cap) throws(ConsoleError) -> Int? {
            guard let raw = library[cap.rawValue] else { return nil }
            guard let number = raw.intValue, number >= 1 else {
                throw ConsoleError(
                    "\(cap.key) must be a whole number, 1 or more (got \(raw.compactString)); from \(source)")
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

    /// The config file's options (none when there is no config file), with `flags` over them.
    static func configured(environment: AppEnvironment, flags: JSONObject = [:]) throws(ConsoleError) -> LibraryOptions
    {
        let config: ConfigFile?
        do {
            config = try ConfigFile.load(environment: environment)
        } catch {
            throw ConsoleError("\(error)")
        }
        var merged = config?.library ?? [:]
        for (key, value) in flags { merged[key] = value }
        let source =
            flags.isEmpty
            ? (config.map { "\($0.url.path) (library:)" } ?? "the defaults")
            : "the command line" + (config.map { " over \($0.url.path)" } ?? "")
        return try LibraryOptions(merged, source: source)
    }

    /// An overlap of more than half a chunk would make every chunk mostly the one before.
    static func check(size: Int, overlap: Int, source: String) throws(ConsoleError) {
        guard overlap <= size / 2 else {
            throw ConsoleError(
                "library.chunk_overlap (\(overlap)) must be at most half of library.chunk_size (\(size)); from \(source)"
            )
        }
    }
}
