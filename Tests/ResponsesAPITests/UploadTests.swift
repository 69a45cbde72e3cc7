import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// Uploads over loopback HTTP: multipart framing streamed from disk, and the Uploads API in parts.
@Suite("Uploads over loopback HTTP")
struct UploadTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("or-upload-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func aFileGoesAsOneMultipartRequestWithItsExactBytes() async throws {
        let bytes = (0..<3000).map { UInt8($0 % 251) }
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let server = try await LoopbackServer.start { _ in
            .json(#"{"id":"file-1","object":"file","bytes":3000,"filename":"x.bin","purpose":"user_data"}"#)
        }
        let sent = SentCounter()
        let file = try await withClient(server: server) { client in
            try await client.uploadFile(url, purpose: "user_data", progress: { sent.set($0) })
        }
        await server.stop()
        #expect(file["id"] == "file-1")
        #expect(sent.value == 3000)
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/files")
        let contentType = try #require(request.headers.headerValue("content-type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let expected =
            Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nuser_data\r\n"
                    + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(url.lastPathComponent)\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n").utf8) + bytes
            + Array("\r\n--\(boundary)--\r\n".utf8)
        #expect(request.body == expected)
        #expect(request.headers.headerValue("content-length") == String(expected.count))
    }

    @Test func aBigFileGoesThroughTheUploadsAPIInParts() async throws {
        let bytes = Array("0123456789".utf8)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let parts = SentCounter()
        let server = try await LoopbackServer.start { request in
            switch request.path {
            case "/v1/uploads": return .json(#"{"id":"upload_1","object":"upload","status":"pending"}"#)
            case "/v1/uploads/upload_1/parts": return .json(#"{"id":"part_\#(parts.next())","object":"upload.part"}"#)
            case "/v1/uploads/upload_1/complete":
                return .json(
                    #"{"id":"upload_1","object":"upload","status":"completed","file":{"id":"file-big","object":"file","bytes":10}}"#
                )
            default: return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let file = try await withClient(server: server) { client in
            try await client.uploadFile(url, purpose: "assistants", singleLimit: 5, partSize: 4)
        }
        await server.stop()
        #expect(file["id"] == "file-big")
        let requests = server.requests
        try #require(requests.count == 5)
        let create = try JSONValue.parse(requests[0].body)
        #expect(
            create == [
                "filename": .string(url.lastPathComponent), "purpose": "assistants", "bytes": 10,
                "mime_type": "application/octet-stream",
            ])
        let partBodies = requests[1...3].map { String(decoding: $0.body, as: UTF8.self) }
        #expect(partBodies[0].contains("name=\"data\"") && partBodies[0].contains("\r\n\r\n0123\r\n"))
        #expect(partBodies[1].contains("\r\n\r\n4567\r\n"))
        #expect(partBodies[2].contains("\r\n\r\n89\r\n"))
        #expect(try JSONValue.parse(requests[4].body) == ["part_ids": ["part_1", "part_2", "part_3"]])
    }

    @Test func aMissingFileIsReportedBeforeAnythingIsSent() async throws {
        let server = try await LoopbackServer.start { _ in .json("{}") }
        await #expect {
            try await withClient(server: server) { client in
                try await client.uploadFile(URL(fileURLWithPath: "/nonexistent/file.pdf"), purpose: "assistants")
            }
        } throws: { error in
            (error as? ResponsesAPIError)?.message == "/nonexistent/file.pdf: no such file"
        }
        await server.stop()
        #expect(server.requests.isEmpty)
    }
}

final class SentCounter: Sendable {
    private let state = Mutex(0)
    var value: Int { state.withLock { $0 } }
    func set(_ value: Int) { state.withLock { $0 = value } }
    func next() -> Int {
        state.withLock {
            $0 += 1
            return $0
        }
    }
}
