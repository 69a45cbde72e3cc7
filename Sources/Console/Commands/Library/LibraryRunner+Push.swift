import Foundation
import Library
import ResponsesAPI

/// `library push [PATH|GLOB...] (--store ID | --new NAME) [--chunking auto|static:SIZE:OVERLAP]`: the library's
/// documents uploaded to a hosted vector store, each with its attributes (`path`, `title`, `type`, `sha256`,
/// `page_count`), so the store's search can be set beside the library's (`compare`, `eval`). A document already
/// in the store with the same SHA-256 is skipped, so an interrupted or failed push is finished by running it
/// again; one failed upload is reported and the others go on.
extension LibraryRunner {
    /// The types file_search takes as they are; the others go up as their extracted text.
    static let hostedTypes: Set<DocumentType> = [.text, .markdown, .html, .json, .pdf, .docx]

    /// `--chunking`: `auto` or `static:SIZE:OVERLAP` (tokens), as the API's `chunking_strategy`.
    static func chunkingStrategy(_ text: String) throws(ConsoleError) -> JSONValue {
        if text == "auto" { return ["type": "auto"] }
        let parts = text.split(separator: ":")
        guard parts.count == 3, parts[0] == "static", let size = Int(parts[1]), let overlap = Int(parts[2]),
            (100...4096).contains(size), overlap >= 0, overlap <= size / 2
        else {
            throw ConsoleError(
                "--chunking must be auto or static:SIZE:OVERLAP (size 100–4096 tokens, overlap at most half; got \(text))",
                exitStatus: .usage)
        }
        return [
            "type": "static",
            "static": ["max_chunk_size_tokens": .integer(size), "chunk_overlap_tokens": .integer(overlap)],
        ]
    }

    public func push(_ patterns: [String], storeID: String?, newName: String?, chunking: String?) async -> ExitStatus {
        let strategy: JSONValue?
        do { strategy = try chunking.map(Self.chunkingStrategy) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        return await withClient(true) { client in
            await withStore { store in
                guard let client else { return .apiError }
                let documents = Self.selected(try await store.documents(), patterns: patterns)
                guard !documents.isEmpty else {
                    throw ConsoleError(
                        "no indexed document in the library matches \(patterns.isEmpty ? "(the library is empty)" : patterns.joined(separator: " "))",
                        exitStatus: .usage)
                }
                let context = ExchangeContext(labels: ["source": "library push"])
                let id: String
                if let newName {
                    let created = try await client.createVectorStore(["name": .string(newName)], context: context)
                    id =
                        try created["id"]?.stringValue
                        ?? { throw ConsoleError("the server created a vector store without an id") }()
                    output.write("Created vector store \(id) (\(newName)).\n")
                } else {
                    id = storeID ?? ""
                }
                let present = Set(
                    try await client.allVectorStoreFiles(storeID: id, context: context)
                        .compactMap { $0["attributes"]?["sha256"]?.stringValue })
                var pushed = 0
                var skipped = 0
                var failed = 0
                for (index, document) in documents.enumerated() {
                    if Task.isCancelled { break }
                    let place = "[\(index + 1)/\(documents.count)]"
                    if present.contains(document.sha256) {
                        skipped += 1
                        output.write("\(place) already in \(id): \(document.path)\n")
                        continue
                    }
                    do {
                        try await pushOne(
                            document, to: id, client: client, store: store, strategy: strategy, context: context)
                        pushed += 1
                        output.write("\(place) pushed \(document.path)\n")
                    } catch {
                        failed += 1
                        ErrorReport.write(error, to: diagnostics, context: "\(place) \(document.path)")
                    }
                }
                output.write("Vector store \(id): \(pushed) pushed, \(skipped) already there, \(failed) failed.\n")
                if Task.isCancelled { return .interrupted }
                return failed > 0 ? .apiError : .success
            }
        }
    }

    /// Uploads one document (its file, or its text) and attaches it to the store with its attributes.
    func pushOne(
        _ document: LibraryDocument, to storeID: String, client: ResponsesClient, store: LibraryStore,
        strategy: JSONValue?,
        context: ExchangeContext
    ) async throws {
        var upload = URL(fileURLWithPath: document.path)
        var temporary: URL?
        if !Self.hostedTypes.contains(document.type) || !FileManager.default.fileExists(atPath: document.path) {
            guard let (_, _, text) = try await store.chunks(ofDocumentAt: document.path) else {
                throw ConsoleError("is no longer in the library")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "or-push-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            upload = folder.appendingPathComponent(upload.deletingPathExtension().lastPathComponent + ".txt")
            try Data(text.utf8).write(to: upload)
            temporary = folder
        }
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let file = try await client.uploadFile(upload, purpose: "assistants", context: context)
        guard let fileID = file["id"]?.stringValue else { throw ConsoleError("the upload's answer has no file id") }
        var attributes: JSONObject = [
            "path": .string(String(document.path.suffix(512))), "type": .string(document.type.rawValue),
            "sha256": .string(document.sha256),
        ]
        if let title = document.title { attributes["title"] = .string(String(title.prefix(512))) }
        if let pages = document.pages { attributes["page_count"] = .integer(pages) }
        _ = try await client.addVectorStoreFile(
            storeID: storeID, fileID: fileID, attributes: attributes, chunkingStrategy: strategy, context: context)
    }

    /// The indexed documents matching the paths or globs (all of them when none is given).
    static func selected(_ documents: [LibraryDocument], patterns: [String]) -> [LibraryDocument] {
        let indexed = documents.filter { $0.status == .indexed }
        guard !patterns.isEmpty else { return indexed }
        let full = patterns.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        return indexed.filter { document in
            full.contains { pattern in
                document.path == pattern || document.path.hasPrefix(pattern + "/")
                    || fnmatch(pattern, document.path, 0) == 0
            }
        }
    }
}
