import Foundation
import GRDB
import ResponsesAPI

/// `inspect stats`: per group (model, day, preset, provider or the proxy's user), the number of requests, tokens, estimated cost,
/// median and 95th-percentile latency and time to first text, the share that failed, and the share of input
/// tokens the server reported as cached (prompt caching's hit rate).
public struct ExchangeStats: Sendable, Hashable {
    public enum Grouping: String, Sendable, CaseIterable {
        case model, day, preset, provider, user
    }

    public struct Group: Sendable, Hashable {
        public var key: String
        public var requests: Int
        public var failed: Int
        public var inputTokens: Int
        /// Of `inputTokens`, those the server reported as read from its prompt cache.
        public var cachedTokens: Int
        public var outputTokens: Int
        /// Nil when no exchange of the group has a known price.
        public var costUSD: Double?
        public var p50DurationMs: Double?
        public var p95DurationMs: Double?
        public var p50TTFTMs: Double?
        public var p95TTFTMs: Double?

        public init(
            key: String, requests: Int, failed: Int, inputTokens: Int, cachedTokens: Int = 0, outputTokens: Int,
            costUSD: Double?, p50DurationMs: Double?, p95DurationMs: Double?, p50TTFTMs: Double?, p95TTFTMs: Double?
        ) {
            self.key = key
            self.requests = requests
            self.failed = failed
            self.inputTokens = inputTokens
            self.cachedTokens = cachedTokens
            self.outputTokens = outputTokens
            self.costUSD = costUSD
            self.p50DurationMs = p50DurationMs
            self.p95DurationMs = p95DurationMs
            self.p50TTFTMs = p50TTFTMs
            self.p95TTFTMs = p95TTFTMs
        }

        public var errorRate: Double { requests == 0 ? 0 : Double(failed) / Double(requests) }
        /// Cached input tokens over input tokens; nil when no input tokens were reported.
        public var cacheHitRate: Double? { inputTokens == 0 ? nil : Double(cachedTokens) / Double(inputTokens) }

        public var json: JSONValue {
            func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
            return [
                "key": .string(key), "requests": .integer(requests), "failed": .integer(failed),
                "error_rate": .number(errorRate), "input_tokens": .integer(inputTokens),
                "cached_tokens": .integer(cachedTokens), "cache_hit_rate": number(cacheHitRate),
                "output_tokens": .integer(outputTokens), "cost_usd": number(costUSD),
                "p50_duration_ms": number(p50DurationMs), "p95_duration_ms": number(p95DurationMs),
                "p50_ttft_ms": number(p50TTFTMs), "p95_ttft_ms": number(p95TTFTMs),
            ]
        }
    }

    public var groups: [Group]

    public init(groups: [Group]) { self.groups = groups }

    /// The nearest-rank percentile `p` (0...1) of `values`; nil when empty.
    static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}

extension InspectorStore {
    public func stats(by grouping: ExchangeStats.Grouping, since: Date? = nil) async throws -> ExchangeStats {
        let key =
            switch grouping {
            case .model: "COALESCE(model, '(none)')"
            case .day: "substr(started_at, 1, 10)"
            case .preset: "COALESCE(preset, '(none)')"
            case .provider: "COALESCE(provider, '(none)')"
            case .user: "COALESCE(user, '(none)')"
            }
        // Grouped inside the read: `Row` is not `Sendable`, so returning rows would pick GRDB's blocking
        // `read` and hold a thread of the concurrency pool for the query.
        let groups = try await writer.read { db -> [ExchangeStats.Group] in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(key) AS key, state, duration_ms, ttft_ms, input_tokens, cached_tokens, output_tokens,
                           cost_usd
                    FROM exchange WHERE started_at >= ? AND state != 'in_progress'
                    """,
                arguments: [StorageDate.string(since ?? Date(timeIntervalSince1970: 0))])
            var byKey: [String: [Row]] = [:]
            for row in rows { byKey[row["key"], default: []].append(row) }
            return byKey.map { key, rows -> ExchangeStats.Group in
                let durations = rows.compactMap { $0["duration_ms"] as Double? }
                let ttfts = rows.compactMap { $0["ttft_ms"] as Double? }
                let costs = rows.compactMap { $0["cost_usd"] as Double? }
                return ExchangeStats.Group(
                    key: key, requests: rows.count,
                    failed: rows.filter { ["failed", "interrupted"].contains($0["state"] as String) }.count,
                    inputTokens: rows.reduce(0) { $0 + (TokenCount.clamped($1["input_tokens"]) ?? 0) },
                    cachedTokens: rows.reduce(0) { $0 + (TokenCount.clamped($1["cached_tokens"]) ?? 0) },
                    outputTokens: rows.reduce(0) { $0 + (TokenCount.clamped($1["output_tokens"]) ?? 0) },
                    costUSD: costs.isEmpty ? nil : costs.reduce(0, +),
                    p50DurationMs: ExchangeStats.percentile(0.5, of: durations),
                    p95DurationMs: ExchangeStats.percentile(0.95, of: durations),
                    p50TTFTMs: ExchangeStats.percentile(0.5, of: ttfts),
                    p95TTFTMs: ExchangeStats.percentile(0.95, of: ttfts))
            }
        }
        return ExchangeStats(groups: groups.sorted { ($0.requests, $1.key) > ($1.requests, $0.key) })
    }

    /// What `user` (the proxy's, `proxy --tokens-file`) has spent since `since`: the estimated cost recorded
    /// with each of its exchanges (`cost_usd`, from the usage and the price table, as `inspect stats` sums
    /// it). Exchanges still in flight and those of models without a price count for nothing.
    public func spent(user: String, since: Date) async throws -> Double {
        try await writer.read { db in
            try Double.fetchOne(
                db,
                sql: "SELECT COALESCE(SUM(cost_usd), 0) FROM exchange WHERE user = ? AND started_at >= ?",
                arguments: [user, StorageDate.string(since)]) ?? 0
        }
    }
}
