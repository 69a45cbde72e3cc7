import Foundation
import Library
import ResponsesAPI
import Workbench

/// `openresponses library ...` and the console's library commands: documents added, searched, listed,
/// shown, removed and asked about, through the sinks; each returns its exit status.
public struct LibraryRunner: Sendable, CommandIORunner {
    let io: CommandIO

    public init(_ io: CommandIO) {
        self.io = io
    }

    /// Opens the library (creating it), saying when a damaged one was moved aside.
    func openStore() throws -> LibraryStore {
        try service(LibraryOptions()).store
    }

    /// The library with `options`; a server's embedder talks through `client` (the console's, recorded in its
    /// inspector) or a client made for the provider it names. Says when a damaged library was moved aside.
    func service(_ options: LibraryOptions, client: ResponsesClient? = nil) throws -> LibraryService {
        _ = try environment.ensureDataDirectory()
        let service = try LibraryService.open(
            at: environment.libraryPath, options: options, dataDirectory: environment.dataDirectory,
            toolEnvironment: environment.variables,
            clients: ConsoleEmbeddingClients(environment: environment, own: client, io: io), now: environment.now())
        if let repaired = service.store.repaired { diagnostics.write("note: the library's \(repaired)\n") }
        return service
    }

    func withStore(_ body: (LibraryStore) async throws -> ExitStatus) async -> ExitStatus {
        await withService(LibraryOptions()) { try await body($0.store) }
    }

    /// Runs `body` with the library (`service`), its clients finished after; an error is reported.
    func withService(
        _ options: LibraryOptions, client: ResponsesClient? = nil, _ body: (LibraryService) async throws -> ExitStatus
    ) async -> ExitStatus {
        let service: LibraryService
        do { service = try self.service(options, client: client) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        return await reporting({ try await body(service) }, cleanup: { await service.finish() })
    }

    /// Runs `body` with the library's options (the config file's, `flags` over them), or says what is wrong
    /// with them.
    public func withOptions(flags: JSONObject, _ body: (LibraryOptions) async -> ExitStatus) async -> ExitStatus {
        do {
            return await body(try LibraryOptions.configured(environment: environment, flags: flags))
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
    }

    /// `library add` (and `sync`, with `syncing` the folder): one line per file (with `verbose`, one per page
    /// too), a progress line on a terminal, then a summary, then the passages embedded. Ctrl-C stops between
    /// files: finished ones stay (a PDF or OCR tool running is stopped at once).
    public func add(
        _ paths: [String], excluding excludes: [String] = [], syncing folder: String? = nil, verbose: Bool = false,
        options: LibraryOptions
    ) async -> ExitStatus {
        await withService(options) { service in
            let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let plan = try await service.planAdding(paths, excluding: excludes, relativeTo: directory)
            let selection = plan.selection
            for path in selection.missing { diagnostics.write("error: \(path): no such file or folder\n") }
            for skipped in selection.skipped { diagnostics.write("skipped \(skipped)\n") }
            let terminal = (diagnostics as? FileDescriptorOutput)?.isTerminal ?? false
            let progress = IngestProgress(
                output: output, diagnostics: diagnostics, terminal: terminal, verbose: verbose,
                total: selection.files.count)
            let embedding = EmbeddingProgress(diagnostics: diagnostics, terminal: terminal, spec: plan.embedder)
            let result = try await service.add(
                plan, syncing: folder.map { URL(fileURLWithPath: $0, relativeTo: directory) },
                starting: { progress.starting($0, path: $1) }, report: { progress.finished($0) },
                embedding: { embedding.update($0, $1) })
            progress.finish()
            embedding.finish()
            // Interrupted while embedding: the files are all added, their summary is not an interruption's.
            let stoppedAdding = result.interrupted && result.embedding == nil
            output.write(
                Self.summary(result.outcomes, of: selection.files.count, interrupted: stoppedAdding) + "\n")
            if stoppedAdding { return .interrupted }
            var status: ExitStatus = result.failed || !selection.missing.isEmpty ? .apiError : .success
            if let run = result.embedding, let spec = plan.embedder {
                let embedded = report(run, spec: spec)
                if status == .success { status = result.interrupted ? .interrupted : embedded }
            }
            return status
        }
    }

    static func describe(_ outcome: Ingest.Outcome, path: String) -> String {
        func counts(_ chunks: Int, _ pages: Int?) -> String {
            "\(chunks) chunk\(chunks == 1 ? "" : "s")" + (pages.map { ", \($0) page\($0 == 1 ? "" : "s")" } ?? "")
        }
        switch outcome {
        case .added(let chunks, let pages): return "added \(path) (\(counts(chunks, pages)))"
        case .updated(let chunks, let pages): return "re-indexed \(path), which changed (\(counts(chunks, pages)))"
        case .rechunked(let chunks, let pages, let was):
            let before = was.map { "it was cut \($0), size/overlap" } ?? "its earlier chunking was not recorded"
            return "re-cut \(path) with the chunking asked (\(before)) (\(counts(chunks, pages)))"
        case .unchanged: return "unchanged \(path)"
        case .removed: return "removed \(path), which is gone from disk"
        case .failed(let error): return "error: \(error)"
        }
    }

    static func summary(_ outcomes: [Ingest.Outcome], of total: Int, interrupted: Bool) -> String {
        var added = 0
        var updated = 0
        var unchanged = 0
        var failed = 0
        var removed = 0
        for outcome in outcomes {
            switch outcome {
            case .added: added += 1
            case .updated, .rechunked: updated += 1
            case .unchanged: unchanged += 1
            case .failed: failed += 1
            case .removed: removed += 1
            }
        }
        var parts = ["\(added) added", "\(updated) re-indexed", "\(unchanged) unchanged", "\(failed) failed"]
        if removed > 0 { parts.append("\(removed) removed") }
        let head =
            interrupted ? "Interrupted after \(outcomes.count) of \(total) files; kept what was done: " : "Library: "
        return head + parts.joined(separator: ", ") + "."
    }
}
