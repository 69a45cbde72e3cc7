import Foundation

/// `library add` and `sync`: the files chosen, extracted, chunked and stored, then embedded.
extension LibraryService {
    /// What an add will do, worked out before anything is stored: the files, the arguments that match
    /// nothing, the links passed over, and the embedder (nil: none asked for).
    public struct AddPlan: Sendable {
        public var selection: FileSelection.Selection
        public var embedder: EmbedderSpec?
    }

    /// What an add did: each file's outcome (in order; fewer than planned when interrupted), and how the
    /// embedding went (nil when it did not run: none asked for, or interrupted first; a failure when it
    /// stopped partway, what was embedded kept).
    public struct AddResult: Sendable {
        public var outcomes: [Ingest.Outcome]
        public var embedding: Result<EmbeddingRun, LibraryServiceError>?
        public var interrupted: Bool

        public var failed: Bool { outcomes.contains { if case .failed = $0 { true } else { false } } }
    }

    /// The files `paths` mean (relative to `directory`) less `excludes`, and the embedder they will be
    /// embedded with (`embedding` false: none). Asking for another embedder than the library's is refused
    /// here, before anything is added.
    public func planAdding(
        _ paths: [String], excluding excludes: [String] = [], relativeTo directory: URL, embedding: Bool = true
    ) async throws -> AddPlan {
        let spec = embedding ? try await embedderForAdding() : nil
        return AddPlan(
            selection: FileSelection.select(paths, excluding: excludes, relativeTo: directory), embedder: spec)
    }

    /// Adds the plan's files (with `syncing`, also removes the documents under that folder whose files are
    /// gone), then computes the vectors they lack. Ctrl-C (the task cancelled) stops between files: the
    /// finished ones stay, and nothing is embedded. `starting` and `report` hear each file; `embedding`
    /// hears (done, total) of the vectors.
    public func add(
        _ plan: AddPlan, syncing folder: URL? = nil, starting: @escaping @Sendable (Int, String) -> Void = { _, _ in },
        report: @escaping @Sendable (Ingest.Progress) -> Void = { _ in },
        embedding progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> AddResult {
        var extractors = Extractors(environment: toolEnvironment)
        extractors.ocr = options.ocr
        extractors.caps = options.caps
        let ingest = Ingest(store: store, extractors: extractors, chunker: options.chunker)
        let files = plan.selection.files
        let outcomes: [Ingest.Outcome]
        if let folder {
            outcomes = try await ingest.sync(folder: folder, files: files, starting: starting, report: report)
        } else {
            outcomes = await ingest.add(files, starting: starting, report: report)
        }
        guard !Task.isCancelled else { return AddResult(outcomes: outcomes, embedding: nil, interrupted: true) }
        guard let spec = plan.embedder else { return AddResult(outcomes: outcomes, embedding: nil, interrupted: false) }
        let run: Result<EmbeddingRun, LibraryServiceError>
        do { run = .success(try await embedMissing(spec, progress: progress)) } catch { run = .failure(error) }
        return AddResult(outcomes: outcomes, embedding: run, interrupted: Task.isCancelled)
    }
}
