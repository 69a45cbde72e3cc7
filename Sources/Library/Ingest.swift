import Digest
import Foundation
import ResponsesAPI

/// Adds files to the library: each file's SHA-256 first (an unchanged file costs nothing more), then
/// extraction, chunking and one transaction that replaces the document's chunks. One file failing (an
/// encrypted PDF, a broken DOCX) is recorded as failed and reported; the others go on. Cancelling the
/// task stops between files: what is stored stays, the file in progress is not stored (the PDF or OCR tool
/// reading it is stopped at once).
public struct Ingest: Sendable {
    public let store: LibraryStore
    public var extractors: Extractors
    public var chunker: Chunker

    public init(store: LibraryStore, extractors: Extractors, chunker: Chunker = Chunker()) {
        self.store = store
        self.extractors = extractors
        self.chunker = chunker
    }

    /// What happened to one file.
    public enum Outcome: Sendable, Hashable {
        case added(chunks: Int, pages: Int?)
        case updated(chunks: Int, pages: Int?)
        /// Unchanged on disk, cut again because the chunking differs from the one it was cut with (`was`).
        case rechunked(chunks: Int, pages: Int?, was: String?)
        case unchanged
        case failed(LibraryError)
        case removed
    }

    /// One file finished: its place in the batch, what happened, and, for a document just indexed, what
    /// each of its pages gave.
    public struct Progress: Sendable {
        public var index: Int
        public var total: Int
        public var path: String
        public var outcome: Outcome
        public var pages: [PageDetail]

        public init(index: Int, total: Int, path: String, outcome: Outcome, pages: [PageDetail] = []) {
            self.index = index
            self.total = total
            self.path = path
            self.outcome = outcome
            self.pages = pages
        }
    }

    /// What one page of an indexed document gave (a document without pages is one "page" numbered nil).
    public struct PageDetail: Sendable, Hashable {
        public var page: Int?
        /// Characters (Unicode scalars) of extracted text.
        public var characters: Int
        public var chunks: Int
        /// Whether OCR read the page (it had no text layer).
        public var ocr: Bool

        public init(page: Int?, characters: Int, chunks: Int, ocr: Bool) {
            self.page = page
            self.characters = characters
            self.chunks = chunks
            self.ocr = ocr
        }
    }

    /// Adds (or re-indexes, when changed) every file; `starting` hears each file's index (from 1) and path
    /// before it is read, `report` hears each one as it finishes.
    public func add(
        _ files: [URL], starting: @Sendable (Int, String) -> Void = { _, _ in }, report: @Sendable (Progress) -> Void
    ) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for (index, url) in files.enumerated() {
            if Task.isCancelled { break }
            starting(index + 1, url.path)
            // Interrupted while reading it: nothing of it was stored, and it is not an outcome.
            guard let (outcome, pages) = await addDetailed(url) else { break }
            outcomes.append(outcome)
            report(Progress(index: index + 1, total: files.count, path: url.path, outcome: outcome, pages: pages))
        }
        await store.settle()
        return outcomes
    }

    /// `library sync FOLDER`: adds what is new, re-indexes what changed, and removes the documents under
    /// the folder whose files are gone.
    public func sync(
        folder: URL, files: [URL], starting: @Sendable (Int, String) -> Void = { _, _ in },
        report: @Sendable (Progress) -> Void
    ) async throws -> [Outcome] {
        var outcomes = await add(files, starting: starting, report: report)
        let present = Set(files.map(\.path))
        let prefix = folder.standardizedFileURL.path + "/"
        let gone = try await store.documents().map(\.path).filter { $0.hasPrefix(prefix) && !present.contains($0) }
        for (index, path) in gone.enumerated() where !Task.isCancelled {
            try await store.remove(matching: path)
            outcomes.append(.removed)
            report(Progress(index: index + 1, total: gone.count, path: path, outcome: .removed))
        }
        if !gone.isEmpty { await store.settle() }
        return outcomes
    }

    public func add(_ url: URL) async -> Outcome {
        await addDetailed(url)?.outcome
            ?? .failed(LibraryError(path: url.standardizedFileURL.path, "not added: interrupted"))
    }

    /// The file's outcome and its pages, or nil when the task was cancelled before anything was stored.
    func addDetailed(_ url: URL) async -> (outcome: Outcome, pages: [PageDetail])? {
        let path = url.standardizedFileURL.path
        guard let type = DocumentType(fileExtension: url.pathExtension) else {
            return (
                .failed(LibraryError(path: path, "is not a type the library reads (\(DocumentType.knownExtensions))")),
                []
            )
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        let sha256: String
        do {
            sha256 = try Self.sha256(of: url)
        } catch {
            return (.failed(error), [])
        }
        let known = try? await store.fingerprint(of: path)
        if let known, known.sha256 == sha256, known.indexed, known.chunking == chunker.signature {
            return (.unchanged, [])
        }
        var record = LibraryStore.DocumentRecord(
            path: path, type: type, size: size, mtime: attributes?[.modificationDate] as? Date, sha256: sha256)
        record.chunking = chunker.signature
        let chunks: [Chunker.Chunk]
        let failure: LibraryError?
        // Extraction runs external tools and chunking is CPU work: both on a thread of their own, so the
        // concurrency pool's few threads (two on a two-core machine) are never held while a tool runs.
        let (extractors, chunker) = (self.extractors, self.chunker)
        // Cancelled (Ctrl-C), the tool it runs is stopped at once; the file is then not an outcome (below).
        let read = await OwnThread.run(cancellable: {
            (cancellation) -> Result<(ExtractedDocument, [Chunker.Chunk]), LibraryError> in
            do throws(LibraryError) {
                let extracted = try extractors.extract(url, as: type, cancellation: cancellation)
                let caps = extractors.caps
                guard let chunks = chunker.chunks(of: extracted, atMost: caps.chunks) else {
                    return .failure(
                        caps.refusal(
                            .chunks, path: path,
                            "it makes more than \(caps.chunks) chunks at \(chunker.signature) (size/overlap)"))
                }
                return .success((extracted, chunks))
            } catch {
                return .failure(error)
            }
        })
        switch read {
        case .success(let (extracted, cut)):
            record.extracted = extracted
            chunks = cut
            failure = chunks.isEmpty ? LibraryError(path: path, "has no text to index") : nil
        case .failure(let error):
            chunks = []
            failure = error
        }
        record.error = failure?.message
        if Task.isCancelled { return nil }
        do {
            try await store.store(record, chunks: failure == nil ? chunks : [], chunkHash: Self.sha256)
        } catch {
            // Ctrl-C while it was being written: the transaction was rolled back, so nothing of it is stored
            // and, as above, it is not an outcome (it would be counted as a failure that did not happen).
            if error is CancellationError || Task.isCancelled { return nil }
            return (.failed(LibraryError(path: path, "cannot be stored: \(error)")), [])
        }
        if let failure { return (.failed(failure), []) }
        let details = record.extracted.map { Self.pageDetails($0, chunks: chunks) } ?? []
        let pages = record.extracted?.pageCount
        guard let known else { return (.added(chunks: chunks.count, pages: pages), details) }
        if known.sha256 == sha256, known.indexed {
            return (.rechunked(chunks: chunks.count, pages: pages, was: known.chunking), details)
        }
        return (.updated(chunks: chunks.count, pages: pages), details)
    }

    /// Characters and chunks per page, in page order.
    static func pageDetails(_ document: ExtractedDocument, chunks: [Chunker.Chunk]) -> [PageDetail] {
        var order: [Int?] = []
        var details: [Int?: PageDetail] = [:]
        for segment in document.segments {
            if details[segment.page] == nil {
                order.append(segment.page)
                let ocr = segment.page.map { document.ocrPages.contains($0) } ?? false
                details[segment.page] = PageDetail(page: segment.page, characters: 0, chunks: 0, ocr: ocr)
            }
            details[segment.page]?.characters += segment.end - segment.start
        }
        for chunk in chunks { details[chunk.page]?.chunks += 1 }
        return order.compactMap { details[$0] }
    }

    /// A file's SHA-256, read in 1 MB pieces.
    static func sha256(of url: URL) throws(LibraryError) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw LibraryError(path: url.path, "cannot be read (missing, or no permission)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty { hasher.update(data) }
        return SHA256.hex(digest: hasher.finalize())
    }

    static func sha256(_ text: String) -> String {
        sha256(Data(text.utf8))
    }

    /// Bytes' SHA-256 in lowercase hex (what the library, fragments and pasted files are named and found by).
    public static func sha256(_ data: Data) -> String {
        SHA256.hex(data)
    }
}
