import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `files download` and `stores show|update|add|remove` run as a user runs them, against the loopback
/// server: the exact requests, the exact output, the exact bytes on disk.
@Suite("files download and one-store commands")
struct StoreCommandTests {
    static let store =
        #"{"id":"vs_1","object":"vector_store","name":"handbook","status":"completed","file_counts":{"in_progress":0,"completed":2,"failed":0,"cancelled":0,"total":2}}"#

    static func storeFile(_ id: String, status: String, error: String? = nil) -> String {
        let lastError = error.map { #"{"code":"unsupported_file","message":"\#($0)"}"# } ?? "null"
        return
            #"{"id":"\#(id)","object":"vector_store.file","vector_store_id":"vs_1","status":"\#(status)","last_error":\#(lastError)}"#
    }

    func run(_ harness: ConsoleHarness, _ arguments: [String], in directory: URL? = nil) async throws
        -> Subprocess.Result
    {
        guard let directory else {
            return try await harness.run(arguments)
        }
        // The binary started in `directory`, as a user runs it from there.
        return try await Subprocess.run(
            "/bin/bash", ["-c", #"cd "$0" && exec "$@""#, directory.path, Subprocess.openresponsesBinary] + arguments,
            environment: harness.variables)
    }

    @Test func downloadSavesTheExactBytesUnderTheFilesNameOrWhereToldTo() async throws {
        let content: [UInt8] = Array("first line\n".utf8) + [0x00, 0xFF, 0xFE] + Array(repeating: 0x41, count: 70_000)
        let server = try await LoopbackServer.start { request in
            switch request.path {
            case "/v1/files/file-abc":
                return .json(
                    #"{"id":"file-abc","object":"file","bytes":\#(content.count),"filename":"report.bin","purpose":"assistants"}"#
                )
            case "/v1/files/file-abc/content":
                // In three pieces, as a large file arrives.
                return Reply(
                    status: 200, headers: [("Content-Type", "application/octet-stream")],
                    parts: [
                        .bytes(Array(content[..<5])), .pause(.milliseconds(20)), .bytes(Array(content[5..<40_000])),
                        .bytes(Array(content[40_000...])),
                    ])
            default:
                return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let work = harness.home.appendingPathComponent("work", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

        let byName = try await run(harness, ["files", "download", "file-abc"], in: work)
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout == "Saved file-abc to \(work.appendingPathComponent("report.bin").path) (70.0 KB).\n")
        #expect(try Data(contentsOf: work.appendingPathComponent("report.bin")) == Data(content))

        let chosen = work.appendingPathComponent("chosen.dat")
        let told = try await run(harness, ["files", "download", "file-abc", "-o", chosen.path, "--json"])
        #expect(told.status == 0, "\(told.stderr)")
        #expect(
            try JSONValue.parse(told.stdout) == [
                "id": "file-abc", "path": .string(chosen.path), "bytes": .integer(content.count),
            ])
        #expect(try Data(contentsOf: chosen) == Data(content))

        // Asked for its name once (the first time only), then the content twice.
        #expect(
            server.requests.map { "\($0.method) \($0.path)" } == [
                "GET /v1/files/file-abc", "GET /v1/files/file-abc/content", "GET /v1/files/file-abc/content",
            ])
        await server.stop()
    }

    @Test func showUpdateAndRemove() async throws {
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("GET", "/v1/vector_stores/vs_1"): return .json(Self.store)
            case ("POST", "/v1/vector_stores/vs_1"):
                return .json(Self.store.replacingOccurrences(of: #""name":"handbook""#, with: #""name":"manual""#))
            case ("DELETE", let path) where path.hasPrefix("/v1/vector_stores/vs_1/files/"):
                return .json(
                    #"{"id":"\#(path.split(separator: "/").last ?? "")","object":"vector_store.file.deleted","deleted":true}"#
                )
            default: return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }

        let show = try await run(harness, ["stores", "show", "vs_1"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == "vs_1  handbook  2/2 files  completed\n")
        let json = try await run(harness, ["stores", "show", "vs_1", "--json"])
        #expect(try JSONValue.parse(json.stdout) == JSONValue.parse(Self.store))

        let update = try await run(
            harness,
            ["stores", "update", "vs_1", "--name", "manual", "--metadata", "team=core", "--expires-after-days", "7"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "vs_1  manual  2/2 files  completed\n")
        let nothing = try await run(harness, ["stores", "update", "vs_1"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr == "error: stores update vs_1: give --name, --metadata or --expires-after-days\n")

        let remove = try await run(harness, ["stores", "remove", "vs_1", "file-1", "file-2"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(remove.stdout == "Removed file-1 from vs_1.\nRemoved file-2 from vs_1.\n")

        let requests = server.requests
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /v1/vector_stores/vs_1", "GET /v1/vector_stores/vs_1", "POST /v1/vector_stores/vs_1",
                "DELETE /v1/vector_stores/vs_1/files/file-1", "DELETE /v1/vector_stores/vs_1/files/file-2",
            ])
        try #require(requests.count == 5)
        #expect(
            try JSONValue.parse(requests[2].body) == [
                "name": "manual", "metadata": ["team": "core"],
                "expires_after": ["anchor": "last_active_at", "days": 7],
            ])
        await server.stop()
    }

    @Test func oneFileIsAddedAloneAndWaitedFor() async throws {
        let polls = Counter()
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/files"):
                return .json(
                    #"{"id":"file-up","object":"file","bytes":5,"filename":"notes.txt","purpose":"assistants"}"#)
            case ("POST", "/v1/vector_stores/vs_1/files"):
                let id = request.jsonBody?["file_id"] as? String ?? "?"
                return .json(Self.storeFile(id, status: "in_progress"))
            case ("GET", "/v1/vector_stores/vs_1/files/file-up"):
                return .json(Self.storeFile("file-up", status: polls.next() == 1 ? "in_progress" : "completed"))
            case ("GET", "/v1/vector_stores/vs_1/files/file-bad"):
                return .json(Self.storeFile("file-bad", status: "failed", error: "File type not supported"))
            default: return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let notes = harness.home.appendingPathComponent("notes.txt")
        try "notes".write(to: notes, atomically: true, encoding: .utf8)

        // A path is uploaded first; then the single-file endpoint, polled until the file is processed.
        let added = try await run(harness, ["stores", "add", "vs_1", notes.path, "--attribute", "team=core"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added 1 of 1 file to vs_1.\n")
        let requests = server.requests
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "POST /v1/files", "POST /v1/vector_stores/vs_1/files", "GET /v1/vector_stores/vs_1/files/file-up",
                "GET /v1/vector_stores/vs_1/files/file-up",
            ])
        try #require(requests.count == 4)
        #expect(try JSONValue.parse(requests[1].body) == ["file_id": "file-up", "attributes": ["team": "core"]])

        let failed = try await run(harness, ["stores", "add", "vs_1", "file-bad"])
        #expect(failed.status == 1)
        #expect(failed.stdout == "Added 0 of 1 file to vs_1.\n")
        #expect(failed.stderr.contains("failed: file-bad: File type not supported"))
        #expect(!server.requests.contains { $0.path.contains("file_batches") }, "one file never goes as a batch")
        await server.stop()
    }
}
