import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// `files` and `stores` run as a user runs them, against the loopback server.
@Suite("files and stores commands")
struct FilesCommandTests {
    static func file(_ id: String) -> String {
        #"{"id":"\#(id)","object":"file","bytes":10,"created_at":1795270000,"filename":"\#(id).txt","purpose":"assistants"}"#
    }

    func run(_ harness: ConsoleHarness, _ arguments: [String]) async throws -> Subprocess.Result {
        try await harness.run(arguments)
    }

    @Test func listAllFollowsPaginationAcrossPages() async throws {
        let server = try await LoopbackServer.start { request in
            if request.uri.contains("after=file-2") {
                return .json(#"{"object":"list","data":[\#(Self.file("file-3"))],"has_more":false}"#)
            }
            return .json(
                #"{"object":"list","data":[\#(Self.file("file-1")),\#(Self.file("file-2"))],"has_more":true,"last_id":"file-2"}"#
            )
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let result = try await run(harness, ["files", "list", "--all", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let ids = try JSONValue.parse(Array(result.stdout.utf8)).arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["file-1", "file-2", "file-3"])
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].uri.contains("after=file-2"))
        let text = try await run(harness, ["files", "list"])
        #expect(text.stdout.hasPrefix("file-1  file-1.txt  10 B  assistants\n"))
        await server.stop()
    }

    @Test func aBatchWithOneFailedFileListsTheFailureWithItsError() async throws {
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/vector_stores/vs_1/file_batches"):
                return .json(
                    #"{"id":"vsfb_1","object":"vector_store.files_batch","status":"in_progress","file_counts":{"in_progress":2,"completed":0,"failed":0,"cancelled":0,"total":2}}"#
                )
            case ("GET", "/v1/vector_stores/vs_1/file_batches/vsfb_1"):
                return .json(
                    #"{"id":"vsfb_1","object":"vector_store.files_batch","status":"completed","file_counts":{"in_progress":0,"completed":1,"failed":1,"cancelled":0,"total":2}}"#
                )
            case ("GET", "/v1/vector_stores/vs_1/file_batches/vsfb_1/files"):
                return .json(
                    #"{"object":"list","data":[{"id":"file-2","object":"vector_store.file","status":"failed","last_error":{"code":"unsupported_file","message":"File type not supported"}}],"has_more":false}"#
                )
            default:
                return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let result = try await run(harness, ["stores", "add", "vs_1", "file-1", "file-2", "--attribute", "team=core"])
        #expect(result.status == 1)
        #expect(result.stdout == "Added 1 of 2 files to vs_1.\n")
        #expect(result.stderr.contains("failed: file-2: File type not supported"))
        let batchRequest = try #require(server.requests.first)
        let batch = try JSONValue.parse(batchRequest.body)
        #expect(batch == ["file_ids": ["file-1", "file-2"], "attributes": ["team": "core"]])
        #expect(server.requests.last?.uri.contains("filter=failed") == true)
        await server.stop()
    }

    @Test func a404ShowsOpenAIsMessageAndTheRequestID() async throws {
        let server = try await LoopbackServer.start { _ in
            .json(
                #"{"error":{"message":"No such File object: file-404","type":"invalid_request_error","param":"id","code":null}}"#,
                status: 404, headers: [("x-request-id", "req_404abc")])
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let result = try await run(harness, ["files", "show", "file-404"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No such File object: file-404"))
        #expect(result.stderr.contains("req_404abc"))
        await server.stop()
    }

    @Test func anInterruptedUploadSaysWhatWasAlreadyUploaded() async throws {
        let count = Counter()
        let server = try await LoopbackServer.start { _ in
            count.next() == 1
                ? .json(Self.file("file-up1"))
                : Reply(
                    status: 200, headers: [("Content-Type", "application/json")],
                    parts: [.bytes(Array("{\"id\":".utf8)), .dropConnection])
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let first = harness.home.appendingPathComponent("one.txt")
        let second = harness.home.appendingPathComponent("two.txt")
        try "first file".write(to: first, atomically: true, encoding: .utf8)
        try "second file".write(to: second, atomically: true, encoding: .utf8)

        let missing = try await run(
            harness, ["files", "upload", first.path, harness.home.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.txt: no such file; nothing was uploaded"))
        #expect(server.requests.isEmpty)

        let result = try await run(harness, ["files", "upload", first.path, second.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("already uploaded: file-up1"))
        let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        let states = try await store.recentExchanges().map(\.state)
        #expect(states == ["failed", "completed"])
        let upload = try #require(try await store.recentExchanges().last)
        let detail = try await store.exchange(id: upload.id)
        let body = String(decoding: detail?.requestBody ?? [], as: UTF8.self)
        #expect(body.contains("<10 bytes of \(first.path)>"), "the inspector keeps the framing, not the file")
        await server.stop()
    }
}
