import Foundation
import GRDB
import ResponsesAPI
import TestSupport
import Testing

@testable import Inspector

/// What a server or a client can put in the store does not crash `inspect cache` or `inspect stats`, and
/// the pairing holds for what real clients send.
@Suite("Prompt cache: hostile figures and real clients' shapes")
struct PromptCacheHostileTests {
    static func record(_ store: TemporaryStore, _ bodies: [JSONObject]) async throws {
        let server = try await LoopbackServer.start(route: cachingRoute())
        try await recording(store, server: server) { client in
            for body in bodies {
                for try await _ in client.stream(CreateResponseRequest(body: body)) {}
            }
        }
        await server.stop()
    }

    /// Usage figures at the ends of a 64-bit integer, as a hostile server can send them.
    @Test func extremeTokenCountsAreClamped() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let body: JSONObject = ["model": "gpt-4.1-mini", "instructions": "x", "input": "hi"]
        try await Self.record(store, [body, body, body])
        try await store.store.writer.write { db in
            try db.execute(sql: "UPDATE exchange SET cached_tokens = ? WHERE id = 2", arguments: [Int64.min])
            try db.execute(
                sql: "UPDATE exchange SET input_tokens = ?, cached_tokens = ? WHERE id != 2",
                arguments: [Int64.max, Int64.max])
        }
        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        #expect(report.pairs.count == 2)
        #expect(report.pairs.allSatisfy { ($0.lostTokens ?? 0) >= 0 && $0.cacheableTokens <= TokenCount.maximum })
        let stats = try await store.store.stats(by: .model)
        #expect(stats.groups.first?.inputTokens == 2 * TokenCount.maximum + 2200)
    }

    /// Chat clients send the same developer message first in every conversation: two conversations that share
    /// it are two conversations, told apart by their first user message.
    @Test func aSharedDeveloperMessageDoesNotMakeOneConversation() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let developer: JSONValue = [
            "role": "developer", "content": .string(String(repeating: "House rules. ", count: 500)),
        ]
        func body(_ items: [JSONValue]) -> JSONObject {
            ["model": "gpt-4.1-mini", "input": .array([developer] + items)]
        }
        let first: JSONValue = ["role": "user", "content": "first conversation"]
        let answer: JSONValue = ["role": "assistant", "content": "answer"]
        try await Self.record(
            store,
            [
                body([first]), body([["role": "user", "content": "second conversation"]]),
                body([first, answer, ["role": "user", "content": "more"]]),
            ])
        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        #expect(report.pairs.map(\.relation) == [.newConversation, .resent])
        #expect(report.pairs.map(\.earlier.id) == [1, 1])
        // The new conversation shares the developer message: it is judged on that part alone.
        let new = report.pairs[0]
        #expect(new.cacheableTokens == CacheReport.cacheable(new.commonTokens))
        #expect(new.breakPoint.map { if case .item(1, "user message", _, _) = $0 { true } else { false } } == true)
    }

    /// No cache outlives an hour: a request over an hour after the last of its group is no pair.
    @Test func anHourApartIsNoPair() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let body: JSONObject = ["model": "gpt-4.1-mini", "instructions": "x", "input": "hi"]
        try await Self.record(store, [body, body])
        try await store.store.writer.write { db in
            try db.execute(sql: "UPDATE exchange SET started_at = '2026-11-28 08:00:00.000' WHERE id = 1")
            try db.execute(sql: "UPDATE exchange SET started_at = '2026-11-28 09:00:01.000' WHERE id = 2")
        }
        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        #expect(report.examined == 2 && report.pairs.isEmpty)
    }
}
