import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49: a request carrying a piped document of megabytes is sent in chunks, read by the recorder with
/// its strings cut, and stored by SQLite from the body's own bytes, all exactly as it went over the wire.
@Suite("Inspector recording of large requests")
struct LargeRequestTests {
    /// About 3 MB of text with escapes, quotes and multi-byte scalars throughout, and a word at its start.
    static let document =
        "needle-at-start "
        + String(repeating: "line with \"quotes\", a tab\tand é 中 👋\n", count: 70_000)

    @Test func aLargeBodyIsSentAndStoredExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in .jsonFixture("response-hello.json") }
        _ = try await recording(store, server: server) { client in
            try await client.create(CreateResponseRequest(model: "gpt-4.1-mini", input: .string(Self.document)))
        }
        await server.stop()
        let sent = try #require(server.requests.first?.body)
        #expect(sent.count > 3_000_000)
        #expect(try JSONValue.parse(sent)["input"]?.stringValue == Self.document, "sent whole, in chunks")
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(detail.requestBody == sent, "stored exactly")
        #expect(row.model == "gpt-4.1-mini-2025-04-14" || row.model == "gpt-4.1-mini")
        let found = try await store.store.exchanges(matching: ExchangeQuery(search: "needle-at-start"))
        #expect(found.map(\.id) == [row.id], "the start of the input is searchable")
        #expect(try await store.store.request(ofExchange: row.id)?.body == sent)
        // Kept beside the row (which each later write rewrites), and gone with it.
        let kept = try await store.store.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM exchange_request WHERE exchange_id = ?", arguments: [row.id])
        }
        #expect(kept == 1)
        #expect(try await store.store.prune(before: Date().addingTimeInterval(60)) == 1)
        let left = try await store.store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM exchange_request")
        }
        #expect(left == 0)
    }

    @Test func anMCPToolsSecretIsRedactedBesideALargeInput() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { _ in .jsonFixture("response-hello.json") }
        var request = CreateResponseRequest(model: "gpt-4.1-mini", input: .string(Self.document))
        request.body["tools"] = [
            [
                "type": "mcp", "server_label": "gh", "server_url": "https://mcp.example/",
                "authorization": "gho_SECRET123",
            ]
        ]
        _ = try await recording(store, server: server) { client in try await client.create(request) }
        await server.stop()
        let row = try #require(try await store.store.recentExchanges().first)
        let stored = try JSONValue.parse(try #require(try await store.store.exchange(id: row.id)).requestBody)
        #expect(stored["tools"]?[0]?["authorization"] == .string(Redactor.placeholder))
        #expect(stored["input"]?.stringValue == Self.document)
        #expect(try store.allBytes().range(of: Data("gho_SECRET123".utf8)) == nil)
    }
}
