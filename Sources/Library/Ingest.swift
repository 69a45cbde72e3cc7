import Crypto
import Foundation

/// Adds files to the library: each file's SHA-256 first (an unchanged file costs nothing more), then
/// extraction, chunking and one transaction that replaces the document's chunks. One file failing (an
/// encrypted PDF, a broken DOCX) is recorded as failed and reported; the others go on. Cancelling the
/// task stops between files: what is stored stays, the file in progress is not stored.
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
        case unchanged
        case failed(LibraryError)
        case removed
    }

    public struct Progress: Sendable {
        public var index: Int
        public var total: Int
        public var path: String
        public var outcome: Outcome
    }

    /// Adds (or re-indexes, when changed) every file; `report` hears each one as it finishes.
    public func add(_ files: [URL], report: @Sendable (Progress) -> Void) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for (index, url) in files.enumerated() {
            if Task.isCancelled { break }
            let outcome = await add(url)
            outcomes.append(outcome)
            report(Progress(index: index + 1, total: files.count, path: url.path, outcome: outcome))
        }
        return outcomes
    }

    /// `library sync FOLDER`: adds what is new, re-indexes what changed, and removes the documents under
    /// the folder whose files are gone.
    public func sync(folder: URL, files: [URL], report: @Sendable (Progress) -> Void) async throws -> [Outcome] {
        var outcomes = await add(files, report: report)
        let present = Set(files.map(\.path))
        let prefix = folder.standardizedFileURL.path + "/"
        let gone = try await store.documents().map(\.path).filter { $0.hasPrefix(prefix) && !present.contains($0) }
        for (index, path) in gone.enumerated() where !Task.isCancelled {
            try await store.remove(matching: path)
            outcomes.append(.removed)
            report(Progress(index: index + 1, total: gone.count, path: path, outcome: .removed))
        }
        return outcomes
    }

    public func add(_ url: URL) async -> Outcome {
        let path = url.standardizedFileURL.path
        guard let type = DocumentType(fileExtension: url.pathExtension) else {
            return .failed(LibraryError(path: path, "is not a type the library reads (\(DocumentType.knownExtensions))"))
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        let sha256: String
        do {
            sha256 = try Self.sha256(of: url)
        } catch {
            return .failed(error)
        }
        let known = try? await store.fingerprint(of: path)
        if let known, known.sha256 == sha256, known.indexed { return .unchanged }
        var record = LibraryStore.DocumentRecord(
            path: path, type: type, size: size, mtime: attributes?[.modificationDate] as? Date, sha256: sha256)
        let chunks: [Chunker.Chunk]
        let failure: LibraryError?
        do {
            let extracted = try extractors.extract(url, as: type)
            record.extracted = extracted
            chunks = chunker.chunks(of: extracted)
            failure = chunks.isEmpty ? LibraryError(path: path, "has no text to index") : nil
        } catch {
            chunks = []
            failure = error
        }
        record.error = failure?.message
        if Task.isCancelled { return .failed(LibraryError(path: path, "not added: interrupted")) }
        do {
            try await store.store(record, chunks: failure == nil ? chunks : [], chunkHash: Self.sha256)
        } catch {
            return .failed(LibraryError(path: path, "cannot be stored: \(error)"))
        }
        if let failure { return .failed(failure) }
        return known == nil
            ? .added(chunks: chunks.count, pages: record.extracted?.pageCount)
            : .updated(chunks: chunks.count, pages: record.extracted?.pageCount)
    }

    /// A file's SHA-256, read in 1 MB pieces.
    static func sha256(of url: URL) throws(LibraryError) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw LibraryError(path: url.path, "cannot be read (missing, or no permission)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty { hasher.update(data: data) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
