import Foundation
import Library
import ResponsesAPI
import Workbench

/// `openresponses library ...` and the console's library commands: documents added, searched, listed,
/// shown, removed and asked about, through the sinks; each returns its exit status.
struct LibraryRunner: Sendable, CommandIORunner {
    let io: CommandIO

    init(_ io: CommandIO) {
        self.io = io
    }

    /// Opens the library (creating it), saying when a damaged one was moved aside.
    func openStore() throws(ConsoleError) -> LibraryStore {
        do {
            _ = try environment.ensureDataDirectory()
            let store = try LibraryStore.open(at: environment.libraryPath, now: environment.now())
            if let repaired = store.repaired { diagnostics.write("note: the library's \(repaired)\n") }
            return store
        } catch let error as ConsoleError {
            throw error
        } catch {
            throw ConsoleError("cannot open the library \(environment.libraryPath): \(error)", exitStatus: .apiError)
        }
    }

    func withStore(_ body: (LibraryStore) async throws -> ExitStatus) async -> ExitStatus {
        do {
            return try await body(try openStore())
        } catch let error as ConsoleError {
            diagnostics.write("error: \(error.message)\n")
            return error.exitStatus
        } catch {
            diagnostics.write("error: \(error)\n")
            return .apiError
        }
    }

    /// Runs `body` with the library's options (the config file's, `flags` over them), or says what is wrong
    /// with them.
    func withOptions(flags: JSONObject, _ body: (LibraryOptions) async -> ExitStatus) async -> ExitStatus {
        do {
            return await body(try LibraryOptions.configured(environment: environment, flags: flags))
        } catch {
            diagnostics.write("error: \(error.message)\n")
            return error.exitStatus
        }
    }

    /// `library add` (and `sync`, with `syncing` the folder): one line per file (with `verbose`, one per page
    /// too), a progress line on a terminal, then a summary. Ctrl-C stops between files: finished ones stay
    /// (a PDF or OCR tool running is stopped at once).
    func add(
        _ paths: [String], excluding excludes: [String] = [], syncing folder: String? = nil,
        chunker: Chunker = Chunker(),
        ocr: Bool = true, verbose: Bool = false, embedding options: LibraryOptions? = nil
    ) async -> ExitStatus {
        await withStore { store in
            // Checked first: asking for another embedder than the library's is refused before anything is added.
            var spec: EmbedderSpec?
            if let options { spec = try await embedderSpec(for: store, options: options) }
            let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let selection = FileSelection.select(paths, excluding: excludes, relativeTo: directory)
            let (files, missing) = (selection.files, selection.missing)
            for path in missing { diagnostics.write("error: \(path): no such file or folder\n") }
            for skipped in selection.skipped { diagnostics.write("skipped \(skipped)\n") }
            var extractors = Extractors(environment: environment.variables)
            extractors.ocr = ocr
            extractors.caps = options?.caps ?? ResourceCaps()
            let ingest = Ingest(store: store, extractors: extractors, chunker: chunker)
            let terminal = (diagnostics as? FileDescriptorOutput)?.isTerminal ?? false
            let progress = IngestProgress(
                output: output, diagnostics: diagnostics, terminal: terminal, verbose: verbose, total: files.count)
            let starting: @Sendable (Int, String) -> Void = { progress.starting($0, path: $1) }
            let report: @Sendable (Ingest.Progress) -> Void = { progress.finished($0) }
            let outcomes: [Ingest.Outcome]
            if let folder {
                outcomes = try await ingest.sync(
                    folder: URL(fileURLWithPath: folder, relativeTo: directory), files: files, starting: starting,
                    report: report)
            } else {
                outcomes = await ingest.add(files, starting: starting, report: report)
            }
            progress.finish()
            output.write(Self.summary(outcomes, of: files.count, interrupted: Task.isCancelled) + "\n")
            let failed = outcomes.contains { if case .failed = $0 { true } else { false } }
            if Task.isCancelled { return .interrupted }
            var status: ExitStatus = failed || !missing.isEmpty ? .apiError : .success
            if let spec, let options {
                let embedded = await embedMissing(store, spec: spec, options: options)
                if status == .success { status = embedded }
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
