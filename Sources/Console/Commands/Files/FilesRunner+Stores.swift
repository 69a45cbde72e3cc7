import Foundation
import ResponsesAPI
import Workbench

extension FilesRunner {
    /// `K=V` pairs (`--metadata`, `--attribute`), checked.
    static func pairs(_ texts: [String], flag: String) throws(SettingError) -> JSONObject {
        var object = JSONObject()
        for text in texts {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw SettingError("\(flag) \(text): write KEY=VALUE")
            }
            object[String(text[..<equals])] = .string(String(text[text.index(after: equals)...]))
        }
        return object
    }

    /// `auto` or `static:MAX:OVERLAP`.
    static func chunking(_ text: String) throws(SettingError) -> JSONValue {
        if text == "auto" { return ["type": "auto"] }
        let parts = text.split(separator: ":")
        guard parts.count == 3, parts[0] == "static", let size = Int(parts[1]), let overlap = Int(parts[2]),
            (100...4096).contains(size), overlap >= 0, overlap <= size / 2
        else {
            throw SettingError(
                "--chunking \(text): write auto or static:MAX:OVERLAP (MAX 100 to 4096 tokens, OVERLAP at most half of MAX)"
            )
        }
        return [
            "type": "static",
            "static": ["max_chunk_size_tokens": .integer(size), "chunk_overlap_tokens": .integer(overlap)],
        ]
    }

    /// File ids as given, and paths uploaded (purpose assistants) first; paths are checked before anything.
    func fileIDs(_ items: [String]) async throws -> [String] {
        let paths = items.filter { !Self.looksLikeFileID($0) }
        let urls = try Self.checkedPaths(paths)
        let uploaded = try await uploadAll(urls, purpose: "assistants")
        var byPath: [String: String] = [:]
        for (path, file) in zip(paths, uploaded) { byPath[path] = file["id"]?.stringValue }
        return items.compactMap { Self.looksLikeFileID($0) ? $0 : byPath[$0] }
    }

    static func looksLikeFileID(_ text: String) -> Bool {
        (text.hasPrefix("file-") || text.hasPrefix("file_")) && !FileManager.default.fileExists(atPath: text)
    }

    public func createStore(
        name: String, files: [String], expiresAfterDays: Int?, chunking: String?, metadata: [String], json: Bool
    ) async -> ExitStatus {
        await guarded {
            var body: JSONObject = ["name": .string(name)]
            if let expiresAfterDays {
                body["expires_after"] = ["anchor": "last_active_at", "days": .integer(expiresAfterDays)]
            }
            if let chunking { body["chunking_strategy"] = try Self.chunking(chunking) }
            let pairs = try Self.pairs(metadata, flag: "--metadata")
            if !pairs.isEmpty { body["metadata"] = .object(pairs) }
            let ids = try await fileIDs(files)
            if !ids.isEmpty { body["file_ids"] = .array(ids.map(JSONValue.string)) }
            var store = try await client.createVectorStore(body)
            if !ids.isEmpty, let id = store["id"]?.stringValue {
                do {
                    store = try await waitForStore(id)
                } catch {
                    context.diagnostics.write(
                        "created \(id) with \(ids.count) file\(ids.count == 1 ? "" : "s"); the server goes on processing them\n"
                    )
                    throw error
                }
            }
            if json { emit(store) } else { print(Self.storeLine(store)) }
            return .success
        }
    }

    /// Polls the store until no file is in progress (with progress on a terminal).
    func waitForStore(_ id: String) async throws -> JSONValue {
        var store = try await client.vectorStore(id: id)
        let total = store["file_counts"]?["total"]?.intValue ?? 0
        let progress = ProgressLine(
            output: context.diagnostics, enabled: progressEnabled, label: "processing", total: max(total, 1))
        defer { progress.finish() }
        while (store["file_counts"]?["in_progress"]?.intValue ?? 0) > 0 {
            progress.update(total - (store["file_counts"]?["in_progress"]?.intValue ?? 0))
            try await Task.sleep(for: .milliseconds(500))
            store = try await client.vectorStore(id: id)
        }
        return store
    }

    public func listStores(limit: Int?, all: Bool, json: Bool) async -> ExitStatus {
        await guarded {
            let stores =
                all
                ? try await client.allVectorStores()
                : try await client.listVectorStores(page: PageRequest(limit: limit ?? 20)).data
            if json {
                emit(.array(stores))
            } else {
                print(stores.isEmpty ? "No vector stores.\n" : stores.map(Self.storeLine).joined())
            }
            return .success
        }
    }

    public func showStore(id: String, json: Bool) async -> ExitStatus {
        await guarded {
            let store = try await client.vectorStore(id: id)
            if json { emit(store) } else { print(Self.storeLine(store)) }
            return .success
        }
    }

    public func updateStore(id: String, name: String?, metadata: [String], expiresAfterDays: Int?, json: Bool) async
        -> ExitStatus
    {
        await guarded {
            var body = JSONObject()
            if let name { body["name"] = .string(name) }
            let pairs = try Self.pairs(metadata, flag: "--metadata")
            if !pairs.isEmpty { body["metadata"] = .object(pairs) }
            if let expiresAfterDays {
                body["expires_after"] = ["anchor": "last_active_at", "days": .integer(expiresAfterDays)]
            }
            guard !body.isEmpty else {
                throw SettingError("stores update \(id): give --name, --metadata or --expires-after-days")
            }
            let store = try await client.updateVectorStore(id: id, body)
            if json { emit(store) } else { print(Self.storeLine(store)) }
            return .success
        }
    }

    public func deleteStores(ids: [String], json: Bool) async -> ExitStatus {
        await guarded {
            var results: [JSONValue] = []
            for id in ids {
                let deletion = try await client.deleteVectorStore(id: id)
                results.append(["id": .string(id), "deleted": .bool(deletion.deleted)])
                if !json { print("Deleted \(id).\n") }
            }
            if json { emit(.array(results)) }
            return .success
        }
    }

    public func storeFiles(id: String, status: String?, json: Bool) async -> ExitStatus {
        await guarded {
            let files = try await client.allVectorStoreFiles(storeID: id, status: status)
            if json {
                emit(.array(files))
            } else {
                print(files.isEmpty ? "No files.\n" : files.map(Self.storeFileLine).joined())
            }
            return .success
        }
    }

    /// Adds files (paths uploaded first): one file directly, several as one file batch; waits for
    /// processing and lists every failure with its `last_error`.
    public func addFiles(id: String, items: [String], attributes: [String], json: Bool) async -> ExitStatus {
        await guarded {
            let attributes = try Self.pairs(attributes, flag: "--attribute")
            let ids = try await fileIDs(items)
            var failures: [JSONValue] = []
            var results: [JSONValue] = []
            if ids.count == 1 {
                var file = try await client.addVectorStoreFile(storeID: id, fileID: ids[0], attributes: attributes)
                while file["status"]?.stringValue == "in_progress" {
                    try await Task.sleep(for: .milliseconds(500))
                    file = try await client.vectorStoreFile(storeID: id, fileID: ids[0])
                }
                results = [file]
                if file["status"]?.stringValue == "failed" { failures = [file] }
            } else {
                var batch = try await client.createFileBatch(storeID: id, fileIDs: ids, attributes: attributes)
                let batchID = batch["id"]?.stringValue ?? ""
                let progress = ProgressLine(
                    output: context.diagnostics, enabled: progressEnabled, label: "processing", total: ids.count)
                do {
                    while batch["status"]?.stringValue == "in_progress" {
                        progress.update(ids.count - (batch["file_counts"]?["in_progress"]?.intValue ?? 0))
                        try await Task.sleep(for: .milliseconds(500))
                        batch = try await client.fileBatch(storeID: id, batchID: batchID)
                    }
                } catch {
                    progress.finish()
                    context.diagnostics.write(
                        "file batch \(batchID) was created in \(id); the server goes on processing it\n")
                    throw error
                }
                progress.finish()
                results = [batch]
                if (batch["file_counts"]?["failed"]?.intValue ?? 0) > 0 {
                    failures = try await client.allFileBatchFiles(storeID: id, batchID: batchID, status: "failed")
                }
            }
            if json {
                emit([
                    "store": .string(id), "file_ids": .array(ids.map(JSONValue.string)), "results": .array(results),
                    "failed": .array(failures),
                ])
            } else {
                print(
                    "Added \(ids.count - failures.count) of \(ids.count) file\(ids.count == 1 ? "" : "s") to \(id).\n")
                for failure in failures {
                    let reason =
                        failure["last_error"]?["message"]?.stringValue ?? failure["last_error"]?["code"]?.stringValue
                        ?? "no reason given"
                    context.diagnostics.write("failed: \(failure["id"]?.stringValue ?? "?"): \(reason)\n")
                }
            }
            return failures.isEmpty ? .success : .apiError
        }
    }

    public func removeFiles(id: String, fileIDs: [String], json: Bool) async -> ExitStatus {
        await guarded {
            var results: [JSONValue] = []
            for fileID in fileIDs {
                let deletion = try await client.removeVectorStoreFile(storeID: id, fileID: fileID)
                results.append(["id": .string(fileID), "removed": .bool(deletion.deleted)])
                if !json { print("Removed \(fileID) from \(id).\n") }
            }
            if json { emit(.array(results)) }
            return .success
        }
    }

    /// Searches every store at once and merges the matches by score.
    public func search(ids: [String], query: String, maxResults: Int?, filter: String?, rewrite: Bool, json: Bool) async
        -> ExitStatus
    {
        await guarded {
            var parsed: JSONValue?
            if let filter {
                do { parsed = try JSONValue.parse(filter) } catch {
                    throw SettingError("--filter: not JSON (\(error))")
                }
            }
            let filters = parsed
            let client = self.client
            let perStore = try await withThrowingTaskGroup(of: (String, [JSONValue]).self) { group in
                for id in ids {
                    group.addTask {
                        (
                            id,
                            try await client.searchVectorStore(
                                storeID: id, query: query, maxResults: maxResults, filters: filters,
                                rewriteQuery: rewrite)
                        )
                    }
                }
                var all: [(String, [JSONValue])] = []
                for try await result in group { all.append(result) }
                return all
            }
            var merged: [JSONValue] = []
            for (store, hits) in perStore {
                for hit in hits {
                    var object = hit.objectValue ?? [:]
                    object["vector_store_id"] = .string(store)
                    merged.append(.object(object))
                }
            }
            merged.sort { ($0["score"]?.doubleValue ?? 0) > ($1["score"]?.doubleValue ?? 0) }
            if let maxResults { merged = Array(merged.prefix(maxResults)) }
            if json {
                emit(.array(merged))
            } else {
                print(merged.isEmpty ? "No matches.\n" : merged.map(Self.hitLine).joined())
            }
            return .success
        }
    }

    static func storeLine(_ store: JSONValue) -> String {
        let counts = store["file_counts"]
        let files = counts.map { "\($0["completed"]?.intValue ?? 0)/\($0["total"]?.intValue ?? 0) files" } ?? ""
        return
            "\(store["id"]?.stringValue ?? "?")  \(store["name"]?.stringValue ?? "")  \(files)  \(store["status"]?.stringValue ?? "")\n"
    }

    static func storeFileLine(_ file: JSONValue) -> String {
        let error = file["last_error"]?["message"]?.stringValue.map { "  \($0)" } ?? ""
        return "\(file["id"]?.stringValue ?? "?")  \(file["status"]?.stringValue ?? "")\(error)\n"
    }

    static func hitLine(_ hit: JSONValue) -> String {
        let score = hit["score"]?.doubleValue.map { String(format: "%.3f", $0) } ?? "?"
        let name = hit["filename"]?.stringValue ?? hit["file_id"]?.stringValue ?? "?"
        let text = (hit["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(separator: " ")
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return
            "\(score)  \(hit["vector_store_id"]?.stringValue ?? "")  \(name)\n    \(flat.count > 160 ? String(flat.prefix(159)) + "…" : flat)\n"
    }
}
