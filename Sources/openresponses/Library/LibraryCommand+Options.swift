import ArgumentParser
import Console
import Foundation
import Library
import ResponsesAPI
import Workbench

/// How `library add` and `sync` read and cut documents, and their caps: `library:` settings over the config
/// file's.
struct ChunkingOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("chunk-size"),
        help: "Characters per chunk (default: library.chunk_size in config.yaml, else 1000).")
    var size: Int?
    @Option(
        name: .customLong("chunk-overlap"),
        help: "Characters repeated from one chunk to the next (default: library.chunk_overlap, else 150).")
    var overlap: Int?
    @Flag(inversion: .prefixedNo, help: "Read PDF pages without a text layer with OCR (default: library.ocr, else on).")
    var ocr: Bool?
    @Flag(name: .shortAndLong, help: "One more line per page: its characters, chunks, and whether OCR read it.")
    var verbose = false
    @Option(
        help:
            "What computes the passages' vectors: \(EmbedderSpec.help) (default: library.embedder, else the library's own, else minilm)."
    )
    var embedder: String?
    @Option(
        name: .customLong("max-zip-member-mb"),
        help:
            "Refuse a DOCX whose part inflates past this many MB (default: library.max_zip_member_mb, else \(ResourceCaps.defaultZIPMemberMB))."
    )
    var maxZIPMemberMB: Int?
    @Option(
        name: .customLong("max-text-mb"),
        help:
            "Refuse a file whose text passes this many MB (default: library.max_text_mb, else \(ResourceCaps.defaultTextMB))."
    )
    var maxTextMB: Int?
    @Option(
        name: .customLong("max-chunks"),
        help: "Refuse a file cut into more chunks (default: library.max_chunks, else \(ResourceCaps.defaultChunks)).")
    var maxChunks: Int?
    @Option(
        name: .customLong("max-pdf-pages"),
        help: "Refuse a PDF of more pages (default: library.max_pdf_pages, else \(ResourceCaps.defaultPDFPages)).")
    var maxPDFPages: Int?
    @Option(
        name: .customLong("ocr-page-seconds"),
        help:
            "Refuse a page or image whose OCR takes longer (default: library.ocr_page_seconds, else \(ResourceCaps.defaultOCRPageSeconds))."
    )
    var ocrPageSeconds: Int?

    /// The caps' flags, by the key each sets.
    var capFlags: [(ResourceCaps.Cap, Int?)] {
        [
            (.zipMember, maxZIPMemberMB), (.text, maxTextMB), (.chunks, maxChunks), (.pdfPages, maxPDFPages),
            (.ocrPageTime, ocrPageSeconds),
        ]
    }

    func validate() throws {
        if let size, size < 50 { throw ValidationError("--chunk-size must be at least 50 characters (got \(size))") }
        if let overlap, overlap < 0 { throw ValidationError("--chunk-overlap cannot be negative (got \(overlap))") }
        if let embedder {
            do { _ = try EmbedderSpec(parsing: embedder) } catch {
                throw ValidationError("--embedder: \(error.message)")
            }
        }
        for case (let cap, let value?) in capFlags where value < 1 {
            throw ValidationError("\(cap.flag) must be 1 or more (got \(value))")
        }
    }

    /// The flags given, as `library:` settings over the config file's.
    var flags: JSONObject {
        var flags: JSONObject = [:]
        if let size { flags["chunk_size"] = .number(Double(size)) }
        if let overlap { flags["chunk_overlap"] = .number(Double(overlap)) }
        if let ocr { flags["ocr"] = .bool(ocr) }
        if let embedder { flags["embedder"] = .string(embedder) }
        for case (let cap, let value?) in capFlags { flags[cap.rawValue] = .number(Double(value)) }
        return flags
    }
}

/// `--doc` and `--type`: the part of the library `search` and `ask` look in.
struct ScopeOptions: ParsableArguments, Sendable {
    @Option(help: "Only this document (a path or a glob).") var doc: String?
    @Option(help: "Only this type (text, markdown, html, json, jsonl, csv, pdf, docx, image).") var type: DocumentType?
    var filter: LibraryStore.SearchFilter {
        LibraryStore.SearchFilter(document: doc.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, type: type)
    }
}

extension DocumentType: ExpressibleByArgument {}
extension Retriever.Mode: ExpressibleByArgument {}
