#if TeamInspector
    import Foundation
    import Inspector
    import PostgresNIO

    extension TeamStore {
        /// `inspect stats` over the team store, grouped and summed in the database (its rows never cross the
        /// network); the percentiles are nearest-rank (`percentile_disc`), as the SQLite store computes them.
        public func stats(by grouping: ExchangeStats.Grouping, since: Date?) async throws -> ExchangeStats {
            let key =
                switch grouping {
                case .model: "COALESCE(model, '(none)')"
                case .day: "to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
                case .preset: "COALESCE(preset, '(none)')"
                case .provider: "COALESCE(provider, '(none)')"
                case .user: "COALESCE(user_name, '(none)')"
                }
            let since = since ?? Date(timeIntervalSince1970: 0)
            let groups = try await run("compute statistics") { connection in
                var groups: [ExchangeStats.Group] = []
                // Built as text (constants only: the grouping's column and the clamped sums) with `since` bound.
                let sql = """
                    SELECT \(key) AS key, count(*)::bigint,
                           count(*) FILTER (WHERE state IN ('failed', 'interrupted'))::bigint,
                           \(Self.clamped("input_tokens")), \(Self.clamped("cached_tokens")),
                           \(Self.clamped("output_tokens")), sum(cost_usd),
                           percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms),
                           percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms),
                           percentile_disc(0.5) WITHIN GROUP (ORDER BY ttft_ms),
                           percentile_disc(0.95) WITHIN GROUP (ORDER BY ttft_ms)
                    FROM exchange WHERE started_at >= $1 AND state != 'in_progress'
                    GROUP BY 1
                    """
                var bindings = PostgresBindings()
                bindings.append(since)
                let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
                for try await row in rows {
                    let (key, requests, failed, input, cached, output, cost, p50, p95, t50, t95) = try row.decode(
                        (String, Int, Int, Int, Int, Int, Double?, Double?, Double?, Double?, Double?).self)
                    groups.append(
                        ExchangeStats.Group(
                            key: key, requests: requests, failed: failed, inputTokens: input, cachedTokens: cached,
                            outputTokens: output, costUSD: cost, p50DurationMs: p50, p95DurationMs: p95,
                            p50TTFTMs: t50, p95TTFTMs: t95))
                }
                return groups
            }
            return ExchangeStats(groups: groups.sorted { ($0.requests, $1.key) > ($1.requests, $0.key) })
        }
    }
#endif

#if TeamInspector
    import Foundation
    import PostgresNIO

    extension TeamStore {
        /// A token count's sum as the SQLite store makes it: each row's count clamped to 0…2⁴⁰ (`TokenCount`), so
        /// that a server's absurd figure neither overflows the sum nor differs between the engines.
        static func clamped(_ column: String) -> String {
            "COALESCE(sum(LEAST(GREATEST(\(column), 0), 1099511627776)), 0)::bigint"
        }

        /// What `user` has spent since `since` in every exchange the team store holds, from any proxy.
        public func spent(user: String, since: Date) async throws(TeamStoreError) -> Double {
            try await run("sum a user's spending") { connection in
                var total = 0.0
                for try await sum in try await connection.query(
                    """
                    SELECT COALESCE(sum(cost_usd), 0)::float8 FROM exchange
                    WHERE user_name = \(user) AND started_at >= \(since)
                    """, logger: logger
                ).decode(Double.self) { total = sum }
                return total
            }
        }
    }
#endif
