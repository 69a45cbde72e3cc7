#if TeamInspector
    import Foundation
    import Inspector
    import PostgresNIO
    import Untrusted

    /// The `inspect` commands' reads, in PostgreSQL: the same records as the SQLite store's, ids the team
    /// store's own. Search is PostgreSQL's full text (`tsvector`, the `simple` configuration: words as they are,
    /// lower-cased, no stemming, as the SQLite store's FTS5 matches them).
    extension TeamStore: InspectorReading {
        public var location: String { address.description }

        static let summaryColumns = """
            id, started_at, method, url, state, status, streamed, model, response_id, request_id, ttft_ms,
            duration_ms, input_tokens, output_tokens, event_count, preset, provider, source, client, session, error,
            cost_usd, attempt, eval_run, batch_id, user_name
            """

        public func exchanges(matching query: ExchangeQuery) async throws -> [ExchangeSummary] {
            var bindings = PostgresBindings()
            let filter = Self.filter(query, into: &bindings)
            bindings.append(query.limit)
            let sql = "SELECT \(Self.summaryColumns) FROM exchange \(filter) ORDER BY id DESC LIMIT $\(bindings.count)"
            return try await summaries(PostgresQuery(unsafeSQL: sql, binds: bindings), what: "list exchanges")
        }

        public func exchanges(after id: Int64, among ids: [Int64]) async throws -> [ExchangeSummary] {
            try await summaries(
                "SELECT \(unescaped: Self.summaryColumns) FROM exchange WHERE id > \(id) OR id = ANY(\(ids)) ORDER BY id",
                what: "follow exchanges")
        }

        public func exchange(id: Int64) async throws -> ExchangeDetail? {
            try await run("read exchange \(id)") { connection in
                try await Self.detail(id: id, connection: connection, logger: logger)
            }
        }

        public func forEachExchange(since: Date?, _ body: (ExchangeDetail) throws -> Void) async throws {
            let since = since ?? Date(timeIntervalSince1970: 0)
            var after: Int64 = 0
            while true {
                // A page of ids at a time, each exchange read and handed on alone: never the store in memory.
                let page = after
                let ids = try await run("export exchanges") { connection in
                    var ids: [Int64] = []
                    for try await id in try await connection.query(
                        "SELECT id FROM exchange WHERE started_at >= \(since) AND id > \(page) ORDER BY id LIMIT 500",
                        logger: logger
                    ).decode(Int64.self) { ids.append(id) }
                    return ids
                }
                guard let last = ids.last else { return }
                for id in ids {
                    if let detail = try await exchange(id: id) { try body(detail) }
                }
                after = last
            }
        }

        public func prune(before date: Date) async throws -> Int {
            try await run("prune exchanges") { connection in
                var count = 0
                for try await deleted in try await connection.query(
                    "WITH gone AS (DELETE FROM exchange WHERE started_at < \(date) RETURNING 1) SELECT count(*) FROM gone",
                    logger: logger
                ).decode(Int.self) { count = deleted }
                return count
            }
        }

        /// The tool calls the console ran are not pushed (they are the console's own record of its turns).
        public func toolCalls(forResponses responseIDs: [String]) async throws -> [String: [ToolCallEntry]] { [:] }

        func summaries(_ query: PostgresQuery, what: String) async throws(TeamStoreError) -> [ExchangeSummary] {
            try await run(what) { connection in
                var rows: [ExchangeSummary] = []
                for try await row in try await connection.query(query, logger: logger) {
                    rows.append(try Self.summary(row.makeRandomAccess()))
                }
                return rows
            }
        }

        static func summary(_ row: PostgresRandomAccessRow) throws -> ExchangeSummary {
            var summary = ExchangeSummary(
                id: try row["id"].decode(Int64.self), startedAt: try row["started_at"].decode(Date.self),
                method: try row["method"].decode(String.self), url: try row["url"].decode(String.self),
                state: try row["state"].decode(String.self), streamed: try row["streamed"].decode(Bool.self),
                source: try row["source"].decode(String.self), eventCount: try row["event_count"].decode(Int.self),
                attempt: try row["attempt"].decode(Int.self))
            summary.status = try row["status"].decode(Int?.self)
            summary.model = try row["model"].decode(String?.self)
            summary.responseId = try row["response_id"].decode(String?.self)
            summary.requestId = try row["request_id"].decode(String?.self)
            summary.ttftMs = try row["ttft_ms"].decode(Double?.self)
            summary.durationMs = try row["duration_ms"].decode(Double?.self)
            summary.inputTokens = try row["input_tokens"].decode(Int?.self)
            summary.outputTokens = try row["output_tokens"].decode(Int?.self)
            summary.preset = try row["preset"].decode(String?.self)
            summary.provider = try row["provider"].decode(String?.self)
            summary.client = try row["client"].decode(String?.self)
            summary.session = try row["session"].decode(String?.self)
            summary.error = try row["error"].decode(String?.self)
            summary.costUsd = try row["cost_usd"].decode(Double?.self)
            summary.evalRun = try row["eval_run"].decode(String?.self)
            summary.batchId = try row["batch_id"].decode(String?.self)
            summary.user = try row["user_name"].decode(String?.self)
            return summary
        }

        static func detail(id: Int64, connection: PostgresConnection, logger: Logger) async throws -> ExchangeDetail? {
            var found: ExchangeDetail?
            for try await row in try await connection.query(
                """
                SELECT \(unescaped: summaryColumns), request_headers, request_body, response_headers, response_body,
                       response_status, ttfb_ms, cached_tokens, reasoning_tokens, total_tokens, replay_of
                FROM exchange WHERE id = \(id)
                """, logger: logger)
            {
                let row = row.makeRandomAccess()
                var detail = ExchangeDetail(
                    summary: try summary(row),
                    requestHeaders: ExchangeDetail.decode(headers: try row["request_headers"].decode(String.self)),
                    requestBody: Array(buffer: try row["request_body"].decode(ByteBuffer.self)),
                    responseHeaders: ExchangeDetail.decode(headers: try row["response_headers"].decode(String.self)),
                    responseBody: try row["response_body"].decode(ByteBuffer?.self).map { Array(buffer: $0) },
                    events: [])
                detail.responseStatus = try row["response_status"].decode(String?.self)
                detail.ttfbMs = try row["ttfb_ms"].decode(Double?.self)
                detail.cachedTokens = try row["cached_tokens"].decode(Int?.self)
                detail.reasoningTokens = try row["reasoning_tokens"].decode(Int?.self)
                detail.totalTokens = try row["total_tokens"].decode(Int?.self)
                detail.replayOf = try row["replay_of"].decode(Int64?.self)
                found = detail
            }
            guard var detail = found else { return nil }
            for try await (index, sequence, offset, type, data) in try await connection.query(
                "SELECT idx, sequence_number, offset_ms, type, data FROM event WHERE exchange_id = \(id) ORDER BY idx",
                logger: logger
            ).decode((Int, Int?, Double, String, ByteBuffer).self) {
                detail.events.append(
                    StoredEvent(
                        index: index, sequenceNumber: sequence, offsetMs: offset, type: type, data: Array(buffer: data))
                )
            }
            return detail
        }

        /// `query`'s filters as a WHERE clause over `bindings` (the values bound, never spliced).
        static func filter(_ query: ExchangeQuery, into bindings: inout PostgresBindings) -> String {
            var clauses: [String] = []
            func bind(_ value: some PostgresNonThrowingEncodable) -> String {
                bindings.append(value)
                return "$\(bindings.count)"
            }
            if let since = query.since { clauses.append("started_at >= \(bind(since))") }
            if let before = query.before { clauses.append("started_at < \(bind(before))") }
            if let model = query.model {
                clauses.append("(model = \(bind(model)) OR model LIKE \(bind(LikePattern.literal(model) + "-%")))")
            }
            if let status = query.status {
                if let code = Int(status) {
                    clauses.append("status = \(bind(code))")
                } else {
                    clauses.append("state = \(bind(status))")
                }
            }
            if let preset = query.preset { clauses.append("preset = \(bind(preset))") }
            if let provider = query.provider { clauses.append("provider = \(bind(provider))") }
            if let source = query.source { clauses.append("source = \(bind(source))") }
            if let client = query.client {
                clauses.append("client ILIKE \(bind("%" + LikePattern.literal(client) + "%"))")
            }
            if let run = query.evalRun { clauses.append("eval_run = \(bind(run))") }
            if let batch = query.batchID { clauses.append("batch_id = \(bind(batch))") }
            if let user = query.user { clauses.append("user_name = \(bind(user))") }
            if let response = query.responseID { clauses.append("response_id = \(bind(response))") }
            if let search = query.search, search.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
                // plainto_tsquery: the user's words, all required, none of them query syntax.
                clauses.append(
                    "search @@ plainto_tsquery('simple', openresponses_search_words(\(bind(clean(search)))))")
            }
            return clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        }
    }
#endif

#if TeamInspector
    import PostgresNIO

    extension TeamStore {
        /// Which local store exchange `id` came from, and its id there (nil when there is no such exchange).
        public func origin(ofExchange id: Int64) async throws(TeamStoreError) -> (store: String, id: Int64)? {
            try await run("read exchange \(id)") { connection in
                for try await (origin, local) in try await connection.query(
                    "SELECT origin, origin_id FROM exchange WHERE id = \(id)", logger: logger
                ).decode((String, Int64).self) { return (origin, local) }
                return nil
            }
        }

        /// The team store's id of exchange `localID` of local store `origin`, once pushed.
        public func exchangeID(origin: String, localID: Int64) async throws(TeamStoreError) -> Int64? {
            try await run("find a pushed exchange") { connection in
                for try await id in try await connection.query(
                    "SELECT id FROM exchange WHERE origin = \(origin) AND origin_id = \(localID)", logger: logger
                ).decode(Int64.self) { return id }
                return nil
            }
        }
    }
#endif
