import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Inspector

/// `inspect cache` over exchanges recorded from a loopback server that caches as OpenAI documents it
/// (TestSupport's `cachingRoute`).
@Suite("Prompt cache: the report over recorded exchanges")
struct PromptCacheReportTests {
    static let model = "gpt-4.1-mini-2025-04-14"
    static let head = "You are a careful assistant for the billing team. Current time: "
    static let weather: JSONValue = ["type": "function", "name": "get_weather", "parameters": ["type": "object"]]
    static let time: JSONValue = ["type": "function", "name": "get_time", "parameters": ["type": "object"]]

    static func body(_ instructions: String, tools: [JSONValue], previous: String?, input: String)
        -> CreateResponseRequest
    {
        var body: JSONObject = [
            "model": "gpt-4.1-mini", "instructions": .string(instructions), "tools": .array(tools),
            "input": .string(input),
        ]
        if let previous { body["previous_response_id"] = .string(previous) }
        return CreateResponseRequest(body: body)
    }

    @Test func aChainWithATimestampThenReorderedToolsThenAHit() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start(route: cachingRoute())
        let turns: [(String, [JSONValue])] = [
            (Self.head + "2026-11-28T10:14", [Self.weather, Self.time]),
            (Self.head + "2026-11-28T10:15", [Self.weather, Self.time]),
            (Self.head + "2026-11-28T10:15", [Self.time, Self.weather]),
            (Self.head + "2026-11-28T10:15", [Self.time, Self.weather]),
        ]
        try await recording(store, server: server) { client in
            for (index, turn) in turns.enumerated() {
                let previous = index == 0 ? nil : "resp_\(index)"
                var request = Self.body(turn.0, tools: turn.1, previous: previous, input: "question \(index + 1)")
                request.stream = true
                for try await _ in client.stream(request) {}
            }
        }
        await server.stop()

        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        #expect(report.examined == 4)
        try #require(report.pairs.count == 3)
        let (first, second, third) = (report.pairs[0], report.pairs[1], report.pairs[2])
        #expect(report.pairs.allSatisfy { $0.relation == .chained })
        #expect([first.earlier.id, first.later.id, third.later.id] == [1, 2, 4])

        // 1 → 2: the instructions part at the minute's last digit; 2,100 tokens could have been 2,048 cached.
        let offset = (Self.head + "2026-11-28T10:1").utf8.count
        #expect(
            first.breakPoint
                == .instructions(
                    TextDifference(
                        offset: offset, before: "2026-11-28T10:14", after: "2026-11-28T10:15", kind: .timestamp)))
        #expect(first.verdict == .broken)
        #expect(first.later.cachedTokens == 0 && first.cacheableTokens == 2048 && first.lostTokens == 2048)
        // gpt-4.1-mini: $0.40 a million input tokens, $0.10 cached.
        #expect(abs((first.lostUSD ?? 0) - 2048 * 0.30 / 1_000_000) < 1e-12)
        // The tools come first in the prefix, whole; then the instructions up to the difference, 4 bytes a token.
        let tools = Self.weather.serialized().count + Self.time.serialized().count
        #expect(first.commonTokens == (tools + offset) / 4)

        #expect(
            second.breakPoint == .toolsReordered(from: ["get_weather", "get_time"], to: ["get_time", "get_weather"]))
        #expect(second.verdict == .broken && second.lostTokens == CacheReport.cacheable(2200))

        #expect(third.breakPoint == nil && third.verdict == .hit && third.lostTokens == 0)
        #expect(third.later.cachedTokens == CacheReport.cacheable(2300))
        #expect(report.lostTokens == 2048 + CacheReport.cacheable(2200))

        // With an id: the pairs of its chain, down to the first turn; the second turn: its own pair only.
        let chain = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), ids: [4], prices: .shipped)
        #expect(chain.pairs.map(\.later.id) == [2, 3, 4])
        let one = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), ids: [2], prices: .shipped)
        #expect(one.pairs.map(\.later.id) == [2])

        // inspect stats: 2,176 cached of 2,100 + 2,200 + 2,300 + 2,400 input tokens.
        let stats = try await store.store.stats(by: .model)
        #expect(stats.groups.first?.cachedTokens == 2176)
        #expect(abs((stats.groups.first?.cacheHitRate ?? 0) - 2176.0 / 9000) < 1e-9)
    }

    /// Requests that are not chained pair by preset: a stateless conversation resends its history, and an
    /// answer the client changed on its way back breaks the prefix there; a new conversation of the same
    /// preset can share only the instructions.
    @Test func consecutiveRequestsOfAPresetPairByTheirItems() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start(route: cachingRoute())
        let long = String(repeating: "Rules of the house. ", count: 300)
        let history: [JSONValue] = [["role": "user", "content": "first"], ["role": "assistant", "content": "one"]]
        var edited = history
        edited[1] = ["role": "assistant", "content": "one (edited)"]
        try await recording(store, server: server) { client in
            let other: [JSONValue] = [["role": "user", "content": "another conversation"]]
            for input in [history, edited + [["role": "user", "content": "second"]], other] {
                var request = CreateResponseRequest(body: [
                    "model": "gpt-4.1-mini", "instructions": .string(long), "input": .array(input),
                ])
                request.stream = true
                for try await _ in client.stream(request) {}
            }
        }
        await server.stop()
        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        try #require(report.pairs.count == 2)
        let pair = report.pairs[0]
        #expect(pair.relation == .resent)
        guard case .item(1, "assistant message", let text?, nil) = pair.breakPoint else {
            Issue.record("expected item 2's text, found \(String(describing: pair.breakPoint))")
            return
        }
        #expect(text.offset == 3 && text.before == "" && text.after == " (edited)")
        // The server cached the same prefix (model and instructions alike): a hit despite the edit's break.
        #expect(pair.verdict == .hit)

        // The third is a new conversation: it pairs with the last request of the preset, and what it could
        // reuse is the 6,000 bytes of instructions (about 1,500 tokens: 1,408 in the cache's steps).
        let new = report.pairs[1]
        #expect(new.relation == .newConversation && new.earlier.id == 2 && new.later.id == 3)
        guard case .item(0, "user message", _, nil) = new.breakPoint else {
            Issue.record("expected the first item, found \(String(describing: new.breakPoint))")
            return
        }
        #expect(new.commonTokens == long.utf8.count / 4)
        #expect(new.cacheableTokens == 1408)
        #expect(new.verdict == .hit)
    }

    /// Through the proxy, requests pair by client: two agents interleaved are each compared with their own
    /// last request, never with each other's.
    @Test func proxiedClientsPairWithTheirOwnRequests() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start(route: cachingRoute())
        let sent: [(client: String, instructions: String, input: String)] = [
            ("OpenAI/Python 1.99.0", "Agent A. " + Self.head + "10:14", "a1"),
            ("OpenAI/JS 5.1.0", "Agent B rules.", "b1"),
            ("OpenAI/Python 1.99.0", "Agent A. " + Self.head + "10:15", "a2"),
        ]
        try await recording(store, server: server) { client in
            for request in sent {
                var body = CreateResponseRequest(body: [
                    "model": "gpt-4.1-mini", "instructions": .string(request.instructions),
                    "input": .string(request.input),
                ])
                body.stream = true
                let context = ExchangeContext(labels: ["source": "proxy", "client": request.client])
                for try await _ in client.stream(body, context: context) {}
            }
        }
        await server.stop()
        let report = try await store.store.cacheReport(since: Date(timeIntervalSince1970: 0), prices: .shipped)
        try #require(report.pairs.count == 1, "\(report.pairs)")
        let pair = report.pairs[0]
        #expect(pair.earlier.id == 1 && pair.later.id == 3 && pair.relation == .newConversation)
        guard case .instructions(let difference) = pair.breakPoint else {
            Issue.record("expected the instructions, found \(String(describing: pair.breakPoint))")
            return
        }
        #expect(difference.kind == .timestamp && difference.before == "10:14" && difference.after == "10:15")
    }
}
