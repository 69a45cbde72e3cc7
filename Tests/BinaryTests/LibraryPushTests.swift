import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `library push` against a loopback server that keeps a vector store's files in memory: a failed upload
/// is reported and the rest go on, types the store does not take go up as their text, and the next push
/// uploads only what is missing.
@Suite("library push over loopback")
struct LibraryPushTests {
    final class Hosted: @unchecked Sendable {
        let lock = NSLock()
        var files: [(id: String, name: String, body: String)] = []
        var attached: [(fileID: String, attributes: [String: Any], chunking: [String: Any]?)] = []
        var refuse: String? = "broken.txt"

        func route(_ request: ReceivedRequest) -> Reply {
            lock.withLock {
                switch (request.method, request.path) {
                case ("POST", "/v1/files"):
                    let body = String(decoding: request.body, as: UTF8.self)
                    let name =
                        body.range(of: #"filename="[^"]*""#, options: .regularExpression).map {
                            String(body[$0].dropFirst(10).dropLast())
                        } ?? "?"
                    if name == refuse {
                        return .json(
                            #"{"error":{"message":"the file could not be parsed","type":"invalid_request_error"}}"#,
                            status: 400)
                    }
                    let id = "file-\(files.count + 1)"
                    files.append((id, name, body))
                    return .json(#"{"id":"\#(id)","object":"file","filename":"\#(name)","purpose":"assistants"}"#)
                case ("POST", "/v1/vector_stores/vs_1/files"):
                    let json = request.jsonBody ?? [:]
                    let id = json["file_id"] as? String ?? ""
                    attached.append(
                        (id, json["attributes"] as? [String: Any] ?? [:], json["chunking_strategy"] as? [String: Any]))
                    return .json(#"{"id":"\#(id)","object":"vector_store.file","status":"completed"}"#)
                case ("GET", "/v1/vector_stores/vs_1/files"):
                    let data = attached.map { entry in
                        let attributes =
                            (try? JSONSerialization.data(withJSONObject: entry.attributes)).map {
                                String(decoding: $0, as: UTF8.self)
                            } ?? "{}"
                        return #"{"id":"\#(entry.fileID)","object":"vector_store.file","attributes":\#(attributes)}"#
                    }
                    return .json(#"{"object":"list","data":[\#(data.joined(separator: ","))],"has_more":false}"#)
                default:
                    return .json(#"{"error":{"message":"not here"}}"#, status: 404)
                }
            }
        }
    }

    @Test func aFailedUploadIsReportedTheRestGoOnAndThePushResumes() async throws {
        let hosted = Hosted()
        let server = try await LoopbackServer.start { hosted.route($0) }
        defer { Task { await server.stop() } }
        let home = TestHome(
            "push", environment: ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-test-loopback"])
        defer { home.remove() }
        let folder = try home.folder(
            "docs",
            files: [
                "a.txt": "First note about harbours.", "broken.txt": "This one the server refuses.",
                "c.csv": "name,colour\nfox,red\n",
            ])
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await home.run(["library"] + arguments)
        }
        try #require(try await run(["add", folder.path, "--embedder", "none"]).status == 0)

        let first = try await run(["push", "--store", "vs_1", "--chunking", "static:300:30"])
        #expect(first.status == 1)
        #expect(first.stderr.contains("error: [2/3] \(folder.path)/broken.txt:"), "\(first.stderr)")
        #expect(first.stderr.contains("the file could not be parsed"))
        #expect(first.stdout.contains("Vector store vs_1: 2 pushed, 0 already there, 1 failed."), "\(first.stdout)")
        let uploaded = hosted.lock.withLock { hosted.files }
        #expect(uploaded.map(\.name) == ["a.txt", "c.txt"], "the CSV goes up as its text")
        #expect(uploaded.last?.body.contains("name: fox; colour: red") == true)
        let attached = hosted.lock.withLock { hosted.attached }
        #expect(attached.first?.attributes["type"] as? String == "text")
        #expect((attached.first?.attributes["sha256"] as? String)?.count == 64)
        #expect(attached.first?.attributes["path"] as? String == folder.appendingPathComponent("a.txt").path)
        #expect((attached.first?.chunking?["static"] as? [String: Any])?["max_chunk_size_tokens"] as? Int == 300)

        hosted.lock.withLock { hosted.refuse = nil }
        let second = try await run(["push", "--store", "vs_1"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Vector store vs_1: 1 pushed, 2 already there, 0 failed."), "\(second.stdout)")
        #expect(hosted.lock.withLock { hosted.files.map(\.name) } == ["a.txt", "c.txt", "broken.txt"])

        let wrong = try await run(["push", "--store", "vs_1", "--chunking", "static:50:10"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--chunking must be auto or static:SIZE:OVERLAP"))
        #expect(try await run(["push"]).stderr.contains("give --store ID or --new NAME"))
    }
}
