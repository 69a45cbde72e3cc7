import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// The proxy between curl and a loopback upstream, recording into a real store: bytes pass unchanged both
/// ways, every event is stored with its exact bytes, errors and departures are recorded, keys are not.
@Suite("recording proxy: forwarding")
struct ProxyForwardingTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-out-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    @Test func aStreamPassesByteForByteAndEveryEventIsRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frames = Fixtures.textStream(
            id: "resp_proxy1", text: "zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich 🚀")
        let upstream = try await LoopbackServer.start { _ in .sse(frames, headers: [("x-request-id", "req_up_1")]) }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let received = scratch.appendingPathComponent("stream.txt")
        let result = try await proxy.curl(
            "/responses",
            [
                "-H", "Authorization: Bearer sk-client-secret-0001", "-H", "Content-Type: application/json",
                "-A", "OpenAI/Python 9.9.9", "-H", "x-stainless-lang: python", "-H",
                "x-stainless-package-version: 9.9.9",
                "--data-binary", #"{"model":"test-model","input":"hi","stream":true}"#,
            ], output: received)
        #expect(result.stdout == "200", "\(result.stderr)")
        #expect(
            try Data(contentsOf: received) == Data(frames.joined().utf8),
            "the client gets the upstream's bytes unchanged")
        let request = try #require(upstream.requests.first)
        #expect(request.header("authorization") == "Bearer sk-client-secret-0001", "the client's key is forwarded")
        #expect(request.path == "/v1/responses")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"model":"test-model","input":"hi","stream":true}"#)

        let store = try await proxy.stop()
        let row = try #require(try await proxy.exchanges(in: store).first)
        #expect(row.summary.source == "proxy")
        #expect(row.summary.client == "OpenAI/Python 9.9.9 (python 9.9.9)")
        #expect(row.summary.state == "completed")
        #expect(row.summary.responseId == "resp_proxy1")
        #expect(row.summary.requestId == "req_up_1")
        #expect(row.summary.model == "test-model")
        #expect(
            String(decoding: row.requestBody, as: UTF8.self) == #"{"model":"test-model","input":"hi","stream":true}"#)
        #expect(row.events.count == frames.count)
        let sentData = frames.map { frame in frame.split(separator: "\n").first { $0.hasPrefix("data: ") }!.dropFirst(6)
        }
        #expect(
            row.events.map { String(decoding: $0.data, as: UTF8.self) } == sentData.map(String.init),
            "each event's exact bytes")
        #expect(try !proxy.storeContains("sk-client-secret-0001"), "the key never reaches the store")
        let byClient = try await store.exchanges(matching: ExchangeQuery(source: "proxy", client: "python"))
        #expect(byClient.count == 1)
        #expect(try await store.exchanges(matching: ExchangeQuery(source: "console")).isEmpty)
        // The HAR export of a proxied exchange is a HAR log with the upstream's URL and the events' text.
        let har = try JSONValue.parse(Array(ExchangeExporter().export(row, as: .har).utf8))
        let entry = try #require(har["log"]?["entries"]?.arrayValue?.first)
        #expect(entry["request"]?["url"]?.stringValue == upstream.baseURL + "/responses")
        #expect(entry["response"]?["status"]?.intValue == 200)
    }

    @Test func wholeAnswersErrorsAndUploadsPassAndAreRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let upstream = try await LoopbackServer.start { request in
            switch request.path {
            case "/v1/responses/resp_missing":
                .json(
                    #"{"error":{"message":"No response with id 'resp_missing' found.","type":"invalid_request_error","param":null,"code":null}}"#,
                    status: 404)
            case "/v1/files":
                .json(
                    #"{"id":"file-up","object":"file","bytes":\#(request.body.count),"created_at":1,"filename":"x","purpose":"assistants"}"#
                )
            default:
                .json(
                    #"{"id":"resp_whole","object":"response","status":"completed","model":"m-1","output":[],"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}"#
                )
            }
        }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let out = scratch.appendingPathComponent("out")
        let whole = try await proxy.curl(
            "/responses", ["-H", "Content-Type: application/json", "--data-binary", #"{"model":"m-1","input":"x"}"#],
            output: out)
        #expect(whole.stdout == "200")
        let missing = try await proxy.curl("/responses/resp_missing", [], output: out)
        #expect(missing.stdout == "404", "an upstream error reaches the client as it is")
        #expect(try String(contentsOf: out, encoding: .utf8).contains("No response with id 'resp_missing' found."))
        // A multipart upload, and one past the size kept whole (streamed upstream, recorded as its size).
        let small = scratch.appendingPathComponent("notes.txt")
        try Data("line one\nline two\n".utf8).write(to: small)
        let upload = try await proxy.curl(
            "/files", ["-F", "purpose=assistants", "-F", "file=@\(small.path)"], output: out)
        #expect(upload.stdout == "200")
        let big = scratch.appendingPathComponent("big.bin")
        // 17 blocks of 1 MB of scattered bytes, each block numbered in its first byte (built a block at a time:
        // a byte at a time, the debug build spent seconds of the shared pool on it).
        let block = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let bytes = (0..<17).flatMap { index in [UInt8(index)] + block.dropFirst() }
        try Data(bytes).write(to: big)
        let bigUpload = try await proxy.curl(
            "/files", ["-H", "Content-Type: application/octet-stream", "--data-binary", "@\(big.path)"], output: out)
        #expect(bigUpload.stdout == "200", "\(bigUpload.stderr)")
        let uploads = upstream.requests.filter { $0.path == "/v1/files" }
        #expect(uploads.count == 2)
        #expect(String(decoding: uploads[0].body, as: UTF8.self).contains("line one\nline two\n"))
        #expect(uploads[1].body == bytes, "17 MB streamed through unchanged")

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(rows.count == 4)
        #expect(rows[0].summary.state == "completed")
        #expect(rows[0].summary.responseId == "resp_whole")
        #expect(rows[0].summary.inputTokens == 3 && rows[0].summary.outputTokens == 4)
        #expect(rows[1].summary.state == "failed")
        #expect(rows[1].summary.status == 404)
        #expect(rows[1].summary.errorMessage?.contains("resp_missing") == true)
        #expect(rows[2].requestBody == uploads[0].body, "the upload's exact bytes")
        #expect(
            String(decoding: rows[3].requestBody, as: UTF8.self)
                == "<\(17 << 20) bytes of application/octet-stream forwarded, not kept (over 16 MB)>")
    }

    @Test func anUnreachableUpstreamGivesTheClientA502InJSON() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let refusing = try RefusingPort()
        let proxy = try await ProxyHarness.start(upstream: refusing.baseURL)
        defer { proxy.remove() }
        let out = scratch.appendingPathComponent("out")
        let result = try await proxy.curl(
            "/responses", ["-H", "Content-Type: application/json", "--data-binary", "{}"], output: out)
        #expect(result.stdout == "502")
        let error = try JSONValue.parse(Array(try Data(contentsOf: out)))
        let message = try #require(error["error"]?["message"]?.stringValue)
        #expect(message.hasPrefix("upstream \(refusing.baseURL) unreachable: "), "\(message)")
        #expect(message.contains("127.0.0.1:\(refusing.port)") && message.contains("connection refused"), "\(message)")
        #expect(error["error"]?["code"]?.stringValue == "upstream_unreachable")
        let store = try await proxy.stop()
        let row = try #require(try await proxy.exchanges(in: store).first)
        #expect(row.summary.state == "failed")
        #expect(row.summary.errorMessage == message)
        let other = try await proxy.curl("/../etc/passwd", ["--path-as-is"], output: out)
        #expect(other.stdout == "404" || other.stdout == "000")
    }

    @Test func aClientLeavingMidStreamCancelsTheUpstreamRequest() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A minute of stream; the client gives up after one second. The upstream's reply then ends one way or
        // the other: aborted when the proxy cancels its request, completed if the proxy read it to the end. No
        // deadline short of the stream's length is asked for: in a full test run this process is shared by
        // hundreds of tests, and the proxy and the upstream wait their turn.
        let frames = Fixtures.textStream(
            id: "resp_long", text: Array(repeating: "word", count: 600).joined(separator: " "))
        let upstream = try await LoopbackServer.start { _ in .sse(frames, pause: .milliseconds(100)) }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let started = ContinuousClock.now
        let result = try await proxy.curl(
            "/responses", ["--max-time", "1", "--data-binary", "{}"], output: scratch.appendingPathComponent("out"))
        #expect(result.status == 28, "curl timed out as asked: \(result.stderr)")
        let deadline = ContinuousClock.now + .seconds(180)
        while upstream.abortedReplies + upstream.completedReplies == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(
            upstream.abortedReplies == 1 && upstream.completedReplies == 0, "after \(ContinuousClock.now - started)")
        let store = try await proxy.stop()
        let row = try #require(try await proxy.exchanges(in: store).first)
        #expect(row.summary.state == "cancelled")
        #expect(row.summary.errorMessage == "the client disconnected")
        #expect(
            row.events.count > 0 && row.events.count < frames.count, "what arrived before is kept (\(row.events.count))"
        )
    }
}
