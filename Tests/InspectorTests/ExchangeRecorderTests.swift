import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

@Suite("Inspector recording over loopback HTTP")
struct ExchangeRecorderTests {
    @Test func streamedExchangeIsRecordedExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in
            .sseFixture("stream-hello.sse", headers: [("x-request-id", "req_s1"), ("set-cookie", "__cf_bm=abc")])
        }
        var request = CreateResponseRequest(model: "gpt-4.1-mini", input: "Say hello")
        request.body["max_output_tokens"] = 64
        try await recording(store, server: server) { client in
            for try await _ in client.stream(request, context: ExchangeContext(preset: "default", session: "s-1")) {}
        }
        await server.stop()

        let rows = try await store.store.recentExchanges()
        try #require(rows.count == 1)
        let detail = try #require(try await store.store.exchange(id: rows[0].id))
        let summary = detail.summary
        #expect(summary.state == "completed")
        #expect(summary.status == 200)
        #expect(summary.streamed)
        #expect(summary.method == "POST")
        #expect(summary.url == server.baseURL + "/responses")
        #expect(summary.responseId == "resp_hello1")
        #expect(summary.model == "gpt-4.1-mini-2025-04-14")
        #expect(summary.requestId == "req_s1")
        #expect(summary.preset == "default")
        #expect(summary.session == "s-1")
        #expect(summary.inputTokens == 21)
        #expect(summary.outputTokens == 9)
        #expect(detail.cachedTokens == 3)
        #expect(detail.totalTokens == 30)
        #expect(summary.ttftMs != nil)
        #expect(detail.ttfbMs != nil)
        #expect((summary.durationMs ?? 0) >= (summary.ttftMs ?? .infinity))

        // The exact request bytes that went over the wire, the key aside.
        let sent = try #require(server.requests.first)
        #expect(detail.requestBody == sent.body)
        #expect(String(decoding: detail.requestBody, as: UTF8.self).contains(#""max_output_tokens":64"#))
        #expect(detail.requestHeaders.first { $0.0 == "Authorization" }?.1 == Redactor.placeholder)
        #expect(detail.responseHeaders.first { $0.0.lowercased() == "set-cookie" }?.1 == Redactor.placeholder)

        // Every event, in order, with its exact data and arrival time.
        #expect(summary.eventCount == 12)
        #expect(detail.events.map { String(decoding: $0.data, as: UTF8.self) } == fixtureDataLines("stream-hello.sse"))
        #expect(detail.events.map(\.index) == Array(0..<12))
        #expect(detail.events.first?.type == "response.created")
        #expect(detail.events.last?.type == "response.completed")
        #expect(detail.events.contains { $0.type == "response.future_feature.delta" })
        #expect(zip(detail.events, detail.events.dropFirst()).allSatisfy { $0.offsetMs <= $1.offsetMs })

        // The key's value is nowhere in the database files.
        let bytes = try store.allBytes()
        #expect(bytes.range(of: Data(testKey.utf8)) == nil)
    }

    @Test func nonStreamedExchangeKeepsTheExactBody() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in .jsonFixture("response-hello.json") }
        _ = try await recording(store, server: server) { client in
            try await client.create(CreateResponseRequest(model: "gpt-4.1-mini", input: "hi"))
        }
        await server.stop()
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(row.state == "completed")
        #expect(!row.streamed)
        #expect(row.responseId == "resp_plain1")
        #expect(row.inputTokens == 11)
        #expect(detail.responseBody == Array(Fixtures.text("response-hello.json").utf8))
        #expect(detail.events.isEmpty)
    }

    @Test func failedExchangeRow() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in
            .jsonFixture("error-model-not-found.json", status: 404, headers: [("x-request-id", "req_404")])
        }
        await #expect(throws: ResponsesAPIError.self) {
            try await recording(store, server: server) { client in
                for try await _ in client.stream(CreateResponseRequest(model: "gpt-nonexistent", input: "hi")) {}
            }
        }
        await server.stop()
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(row.state == "failed")
        #expect(row.status == 404)
        #expect(row.requestId == "req_404")
        #expect(row.errorMessage?.contains("does not exist") == true)
        let error = try JSONValue.parse(Array((row.error ?? "").utf8))
        #expect(error["api_code"] == "model_not_found")
        #expect(error["param"] == "model")
        #expect(error["status"] == 404)
        #expect(detail.responseBody == Array(Fixtures.text("error-model-not-found.json").utf8))
    }

    @Test func cancelledStreamIsRecordedWithItsPartialEvents() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in
            .sse(
                Fixtures.textStream(id: "resp_slow1", text: "one two three four five six seven eight"),
                pause: .milliseconds(150), holdingAfter: 8)
        }
        let partial = try await recording(store, server: server) { client -> String in
            var text = ""
            var deltas = 0
            for try await event in client.stream(CreateResponseRequest(model: "m", input: "count")) {
                if case .outputTextDelta(let delta) = event.kind {
                    text += delta.delta
                    deltas += 1
                    if deltas == 2 { break }
                }
            }
            return text
        }
        await server.stop()
        #expect(partial == "one two ")
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(row.state == "cancelled")
        #expect(row.responseId == "resp_slow1")
        #expect(detail.events.count >= 6)  // created, in_progress, item, part, two deltas
        #expect(detail.events.count < 14)
    }

    @Test func failedResponseInStreamIsRecordedAsFailed() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-error-then-failed.sse") }
        try await recording(store, server: server) { client in
            for try await _ in client.stream(CreateResponseRequest(model: "m", input: "hi")) {}
        }
        await server.stop()
        let row = try #require(try await store.store.recentExchanges().first)
        #expect(row.state == "failed")
        #expect(row.eventCount == 5)
        #expect(row.errorMessage == "The server had an error while processing your request.")
    }

    @Test func storeFileIsPrivate() throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let attributes = try FileManager.default.attributesOfItem(atPath: store.store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func unfinishedExchangeOfADeadProcessIsMarkedInterrupted() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        try await store.store.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO exchange (started_at, method, url, request_headers, state, pid)
                    VALUES (?, 'POST', 'http://x/v1/responses', '[]', 'in_progress', 2147483646)
                    """, arguments: [Date()])
            try db.execute(
                sql: """
                    INSERT INTO exchange (started_at, method, url, request_headers, state, pid)
                    VALUES (?, 'POST', 'http://x/v1/responses', '[]', 'in_progress', ?)
                    """, arguments: [Date(), Int(getpid())])
        }
        #expect(try store.store.markInterruptedExchanges() == 1)
        let states = try await store.store.recentExchanges().map(\.state)
        #expect(states == ["in_progress", "interrupted"])
    }

    @Test func eventBytesThatAreNotUTF8AreStoredExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        var frames = Fixtures.frames("stream-hello.sse").map { Array($0.utf8) }
        let odd: [UInt8] =
            Array(
                "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\""
                    .utf8)
            + [0xFF, 0xFE] + Array("\"}\n\n".utf8)
        frames.insert(odd, at: 5)
        let parts: [Reply.Part] = frames.map { .bytes($0) }
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: parts)
        }
        try await recording(store, server: server) { client in
            for try await _ in client.stream(CreateResponseRequest(model: "m", input: "hi")) {}
        }
        await server.stop()
        let detail = try #require(try await store.store.exchange(id: 1))
        #expect(detail.events.count == 13)
        let stored = try #require(detail.events.first { $0.data.contains(0xFF) })
        #expect(stored.data == Array(odd.dropFirst(40).dropLast(2)))
        #expect(stored.type == "response.output_text.delta")
        let others = detail.events.filter { !$0.data.contains(0xFF) }.map { String(decoding: $0.data, as: UTF8.self) }
        #expect(others == fixtureDataLines("stream-hello.sse"))
    }
}
