import ArgumentParser
import Foundation
import Library
import ResponsesAPI
import Workbench

/// `openresponses library ...`: the local document library.
public struct LibraryCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "library",
        abstract:
            "Add documents (PDF, DOCX, Markdown, HTML, text, JSON, CSV, images) and search them or ask about them.",
        subcommands: [
            Add.self, Sync.self, Search.self, Ask.self, List.self, Show.self, Remove.self, Reembed.self, Stats.self,
            Push.self, Compare.self, Eval.self,
        ])

    public init() {}

    struct Add: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract:
                "Add files, folders (recursively) and globs; unchanged files are skipped, changed ones re-indexed.")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "Files, folders or globs.") var paths: [String]
        @Option(help: "Leave out paths matching this glob (repeatable).") var exclude: [String] = []
        @OptionGroup var chunking: ChunkingOptions
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: chunking.flags) { options in
                await runner.add(paths, excluding: exclude, verbose: chunking.verbose, options: options)
            }
        }
    }

    struct Sync: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Add what is new in a folder, re-index what changed, remove what was deleted from disk.")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "The folder.") var folder: String
        @Option(help: "Leave out paths matching this glob (repeatable).") var exclude: [String] = []
        @OptionGroup var chunking: ChunkingOptions
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: chunking.flags) { options in
                await runner.add(
                    [folder], excluding: exclude, syncing: folder, verbose: chunking.verbose, options: options)
            }
        }
    }

    struct Search: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract:
                "The passages that best match: keywords (BM25) and meaning (vectors) fused; \"quoted phrases\" and prefix* work for keywords."
        )
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "What to look for.") var query: [String]
        @Option(help: "How many passages.") var k = 10
        @Option(
            help:
                "hybrid, keyword or semantic (default: library.search_mode, else hybrid when the library has vectors).")
        var mode: Retriever.Mode?
        @OptionGroup var scope: ScopeOptions
        @Flag(help: "Print JSON.") var json = false
        init() {}
        func validate() throws {
            guard k > 0 else { throw ValidationError("--k must be at least 1 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: mode.map { ["search_mode": .string($0.rawValue)] } ?? [:]) { options in
                await runner.search(
                    query.joined(separator: " "), k: k, filter: scope.filter, json: json, options: options)
            }
        }
    }

    struct Ask: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "ask",
            abstract:
                "Answer from the library with citations: with a model when one is configured, else the best sentences.")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "The question.") var question: [String]
        @Option(help: "How many passages to answer from (default: library.passages in config.yaml, else 5).") var k:
            Int?
        @OptionGroup var scope: ScopeOptions
        @Flag(help: "Answer without a model, even when one is configured.") var offline = false
        init() {}
        func validate() throws {
            if let k, !(1...50).contains(k) { throw ValidationError("--k must be from 1 to 50 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: k.map { ["passages": .number(Double($0))] } ?? [:]) { options in
                let context = offline ? nil : try? ConsoleContext(environment: runner.environment)
                let status = await runner.ask(
                    question.joined(separator: " "), filter: scope.filter, offline: offline, context: context,
                    options: options)
                await context?.shutdown()
                return status
            }
        }
    }

    struct List: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The documents in the library.")
        @Flag(help: "Print JSON.") var json = false
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.list(json: json) }
    }

    struct Show: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "A document's chunks and where each is.")
        @Argument(help: "The document's path.") var path: String
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.show(path) }
    }

    struct Remove: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove documents (paths or globs).")
        @Argument(help: "Paths or globs.") var paths: [String]
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.remove(paths) }
    }

    struct Reembed: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "reembed",
            abstract:
                "Compute the library's vectors with an embedder (switching to it), or drop them with --embedder none.")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Option(help: "\(EmbedderSpec.help) (default: library.embedder, else the library's own, else minilm).")
        var embedder: String?
        init() {}
        func validate() throws {
            if let embedder {
                do { _ = try EmbedderSpec(parsing: embedder) } catch {
                    throw ValidationError("--embedder: \(error.message)")
                }
            }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: embedder.map { ["embedder": .string($0)] } ?? [:]) { options in
                await runner.reembed(options: options)
            }
        }
    }

    struct Push: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract:
                "Upload the library's documents to a vector store with their attributes; those already there are skipped."
        )
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "Documents (paths, folders or globs; default: the whole library).") var paths: [String] = []
        @Option(help: "The vector store to push to.") var store: String?
        @Option(name: .customLong("new"), help: "Create a vector store with this name and push to it.") var new: String?
        @Option(help: "auto, or static:SIZE:OVERLAP in tokens (the store's chunking_strategy).") var chunking: String?
        init() {}
        func validate() throws {
            guard (store == nil) != (new == nil) else {
                throw ValidationError("give --store ID or --new NAME (one of them)")
            }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.push(paths, storeID: store, newName: new, chunking: chunking)
        }
    }

    struct Compare: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract:
                "The keyword, semantic and hybrid rankings (and a vector store's search) side by side, rank by rank.")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(help: "What to look for.") var query: [String]
        @Option(help: "A vector store whose search (POST /vector_stores/ID/search) is shown beside.") var store: String?
        @Option(help: "How many ranks.") var k = 10
        init() {}
        func validate() throws {
            guard (1...50).contains(k) else { throw ValidationError("--k must be from 1 to 50 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: [:]) { options in
                await runner.compare(query.joined(separator: " "), storeID: store, k: k, options: options)
            }
        }
    }

    struct Eval: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "eval",
            abstract:
                "nDCG@10, Recall@10 and MRR of each ranking (and a vector store's) over labelled queries (JSON Lines).")
        @Option(
            help: "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores.")
        var provider: String?
        @Argument(
            help: "A JSON Lines file: {\"query\": \"...\", \"paths\": [\"notes/a.md\"], \"pages\": [3]} per line.")
        var queries: String
        @Option(help: "A vector store to measure beside the library.") var store: String?
        @Flag(name: .customLong("per-query"), help: "One more line per query: each ranking's nDCG@10.") var perQuery =
            false
        @Flag(help: "Print JSON.") var json = false
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: [:]) { options in
                await runner.eval(queries, storeID: store, perQuery: perQuery, json: json, options: options)
            }
        }
    }

    struct Stats: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Documents by type, pages, chunks, index size, failures.")
        init() {}
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.stats() }
    }
}

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
    init() {}

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

struct ScopeOptions: ParsableArguments, Sendable {
    @Option(help: "Only this document (a path or a glob).") var doc: String?
    @Option(help: "Only this type (text, markdown, html, json, jsonl, csv, pdf, docx, image).") var type: DocumentType?
    init() {}
    var filter: LibraryStore.SearchFilter {
        LibraryStore.SearchFilter(document: doc.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, type: type)
    }
}

extension DocumentType: ExpressibleByArgument {}
extension Retriever.Mode: ExpressibleByArgument {}

/// A `library` subcommand: parsed by ArgumentParser and run against a `LibraryRunner`.
protocol LibraryRunnerCommand: ParsableCommand, Sendable {
    func execute(_ runner: LibraryRunner) async -> ExitStatus
    /// `--provider`, on the subcommands that talk to a server.
    var provider: String? { get }
}

extension LibraryRunnerCommand {
    var provider: String? { nil }

    func run() throws {
        // This process's environment, resolved here at the top, with `--provider`'s server chosen: the
        // contexts the runner makes talk to it.
        let runner = LibraryRunner(CommandIO(environment: AppEnvironment.process.choosing(provider: provider)))
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let command = self
        let (status, _) = MainThreadBridge(interrupt: interrupt).run { await command.execute(runner) }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
