import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Inspector

/// The estimated cost of an exchange (prices per million tokens, cached input at its own price) and its
/// time to first text, as stored and as `inspect stats` sums them.
@Suite("Cost and time to first text")
struct CostAndTimingTests {
    /// `a` and `b` equal to a billionth of a cent (floating-point sums differ in the last bits).
    static func same(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) < 1e-11
    }

    @Test func costIsPerMillionTokensWithCachedInputAtItsOwnPrice() throws {
        let table = PriceTable(prices: ["m": PriceTable.Price(input: 2, cachedInput: 0.5, output: 8)])
        let usage = Usage(inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 250_000)
        // 600,000 × $2 + 400,000 × $0.50 + 250,000 × $8, per million.
        #expect(Self.same(table.cost(model: "m", usage: usage), 1.2 + 0.2 + 2.0))
        #expect(
            Self.same(
                table.cost(model: "m-2025-04-14", usage: Usage(inputTokens: 10, outputTokens: 5)), (20 + 40) / 1e6))
        // More cached tokens than input tokens are counted as input tokens, once.
        #expect(
            Self.same(
                table.cost(model: "m", usage: Usage(inputTokens: 10, cachedInputTokens: 50, outputTokens: 0)), 5 / 1e6))
        #expect(table.cost(model: "unknown-model", usage: usage) == nil)
        #expect(table.cost(model: "m", usage: Usage(inputTokens: 10)) == nil)
        #expect(table.cost(model: nil, usage: usage) == nil)
    }

    @Test func theShippedTableFindsASnapshotByItsFamily() throws {
        let price = try #require(PriceTable.shipped.price(for: "gpt-4.1-mini-2025-04-14"))
        #expect(price == PriceTable.Price(input: 0.40, cachedInput: 0.10, output: 1.60, contextWindow: 1_047_576))
        #expect(PriceTable.shipped.price(for: "gpt-4.1-2025-04-14")?.input == 2.00)
        #expect(PriceTable.shipped.price(for: "openai/echo") == nil)
    }

    /// Three answers, each with a pause of 400 ms before its first word and 400 ms after its last: the row's
    /// cost is the usage priced, its time to first text is when the first word arrived, and the stats sum them.
    @Test func recordedCostAndTimeToFirstTextAndTheirStats() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let model = "gpt-4.1-mini-2025-04-14"
        let frames = Fixtures.textStream(id: "resp_cost1", model: model, text: "one two three four")
        let server = try await LoopbackServer.start { _ in
            // created, in_progress, item added, part added | the deltas ... | the rest.
            var parts: [Reply.Part] = frames.prefix(4).map { .bytes(Array($0.utf8)) } + [.pause(.milliseconds(400))]
            parts += frames.dropFirst(4).prefix(4).map { .bytes(Array($0.utf8)) } + [.pause(.milliseconds(400))]
            parts += frames.dropFirst(8).map { .bytes(Array($0.utf8)) }
            return Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: parts)
        }
        try await recording(store, server: server) { client in
            for _ in 0..<3 {
                for try await _ in client.stream(CreateResponseRequest(model: "gpt-4.1-mini", input: "count")) {}
            }
        }
        await server.stop()

        // The fixture's usage: 12 input tokens (2 cached), 4 output tokens.
        let each = (10 * 0.40 + 2 * 0.10 + 4 * 1.60) / 1_000_000
        let rows = try await store.store.recentExchanges()
        try #require(rows.count == 3)
        for row in rows {
            #expect(row.state == "completed")
            #expect(Self.same(row.costUsd, each), "cost_usd \(String(describing: row.costUsd)), expected \(each)")
            // The arrival of the first text, exactly: not the head, not the first event, not the end.
            let ttft = try #require(row.ttftMs)
            let detail = try #require(try await store.store.exchange(id: row.id))
            let firstText = try #require(detail.events.first { $0.type == "response.output_text.delta" })
            #expect(abs(ttft - firstText.offsetMs) < 0.01, "ttft_ms \(ttft), first delta at \(firstText.offsetMs) ms")
            #expect(ttft >= 400, "the first word came after a 400 ms pause, yet ttft_ms is \(ttft)")
        }

        let stats = try await store.store.stats(by: .model)
        try #require(stats.groups.count == 1)
        let group = stats.groups[0]
        #expect(group.key == model)
        #expect(group.requests == 3)
        #expect(group.inputTokens == 36)
        #expect(group.outputTokens == 12)
        #expect(Self.same(group.costUSD, 3 * each))
        let ttfts = rows.compactMap(\.ttftMs).sorted()
        let durations = rows.compactMap(\.durationMs).sorted()
        try #require(ttfts.count == 3 && durations.count == 3)
        #expect(group.p50TTFTMs == ttfts[1])
        #expect(group.p95TTFTMs == ttfts[2])
        #expect(group.p50DurationMs == durations[1])
        #expect(group.json["cost_usd"]?.doubleValue.map { Self.same($0, 3 * each) } == true)
        #expect(group.json["p50_ttft_ms"]?.doubleValue == ttfts[1])
    }
}
