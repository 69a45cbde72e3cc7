#if TeamInspector
    import Foundation
    import Inspector
    import PostgresNIO

    extension TeamStore {
        /// What one push did: exchanges added, already there (sent before, by this or another process), and
        /// refused (their local ids and the database's reason; the others went on).
        public struct PushOutcome: Sendable {
            public var added: [Int64] = []
            public var alreadyThere: [Int64] = []
            public var refused: [(id: Int64, reason: String)] = []
        }

        /// Adds `exchanges` of the local store `origin` in one transaction, each exchange in a savepoint of its
        /// own: one the database refuses (a value it cannot hold) is noted and the others go in. Idempotent by
        /// `(origin, local id)`.
        public func push(_ exchanges: [PushedExchange], origin: String) async throws(TeamStoreError) -> PushOutcome {
            let logger = logger
            // More time for more bytes: the deadline is for a database that stopped answering, not a long answer
            // on a slow link (5 MB a second at least).
            let bytes: Int = exchanges.reduce(0) { $0 + $1.size }
            let limit: Duration = patience + Duration.milliseconds(Int64(bytes / 5_000))
            return try await run("push exchanges", within: limit) { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    var outcome = PushOutcome()
                    var teamIDs: [Int64] = []
                    for exchange in exchanges {
                        let id = exchange.detail.summary.id
                        try await connection.query("SAVEPOINT exchange", logger: logger)
                        do {
                            if let teamID = try await Self.insert(
                                exchange, origin: origin, connection: connection, logger: logger)
                            {
                                outcome.added.append(id)
                                teamIDs.append(teamID)
                            } else {
                                outcome.alreadyThere.append(id)
                            }
                            try await connection.query("RELEASE SAVEPOINT exchange", logger: logger)
                        } catch let error as PSQLError where error.serverInfo?[.sqlState].map(Self.isDataError) == true
                        {
                            try await connection.query("ROLLBACK TO SAVEPOINT exchange", logger: logger)
                            outcome.refused.append((id, error.serverInfo?[.message] ?? "\(error.code)"))
                        }
                    }
                    if !teamIDs.isEmpty {
                        try await Self.notify(added: teamIDs, connection: connection, logger: logger)
                    }
                    return outcome
                }
            }
        }

        /// The team store's exchange of this store's identity and `localID` is another request: two stores share
        /// the identity.
        struct SharedIdentity: Error {
            var localID: Int64
        }

        /// SQLSTATE classes of a value the database will not hold (22: data exception; 23: integrity; 54: a
        /// limit): the exchange's fault, not the connection's.
        static func isDataError(_ code: String) -> Bool {
            code.hasPrefix("22") || code.hasPrefix("23") || code.hasPrefix("54")
        }

        /// Inserts one exchange and its events; its id in the team store, nil when the store already has it.
        static func insert(
            _ exchange: PushedExchange, origin: String, connection: PostgresConnection, logger: Logger
        ) async throws -> Int64? {
            let detail = exchange.detail
            let summary = detail.summary
            // What search looks through, its first 300,000 characters: enough to find an exchange by its words, and
            // a vector the database makes in a moment (1.4 MB of distinct words took seconds, past a deadline).
            let text = String(
                [exchange.inputText, exchange.outputText, exchange.eventText].joined(separator: "\n").prefix(300_000))
            let rows = try await connection.query(
                """
                INSERT INTO exchange (
                    origin, origin_id, started_at, method, url, state, status, streamed, model, response_id,
                    request_id, ttfb_ms, ttft_ms, duration_ms, input_tokens, cached_tokens, output_tokens,
                    reasoning_tokens, total_tokens, event_count, preset, provider, source, client, session, eval_run,
                    batch_id, user_name, error, cost_usd, attempt, response_status, replay_of, request_headers,
                    request_body, response_headers, response_body, search)
                VALUES (
                    \(origin), \(summary.id), \(summary.startedAt), \(clean(summary.method)), \(clean(summary.url)),
                    \(clean(summary.state)), \(summary.status), \(summary.streamed), \(clean(summary.model)),
                    \(clean(summary.responseId)), \(clean(summary.requestId)), \(detail.ttfbMs), \(summary.ttftMs),
                    \(summary.durationMs), \(summary.inputTokens), \(detail.cachedTokens), \(summary.outputTokens),
                    \(detail.reasoningTokens), \(detail.totalTokens), \(summary.eventCount), \(clean(summary.preset)),
                    \(clean(summary.provider)), \(clean(summary.source)), \(clean(summary.client)),
                    \(clean(summary.session)), \(clean(summary.evalRun)), \(clean(summary.batchId)), \(clean(summary.user)),
                    \(clean(summary.error)), \(summary.costUsd), \(summary.attempt), \(clean(detail.responseStatus)),
                    (SELECT id FROM exchange WHERE origin = \(origin) AND origin_id = \(detail.replayOf)),
                    \(clean(ExchangeDetail.encode(headers: detail.requestHeaders))),
                    \(ByteBuffer(bytes: detail.requestBody)),
                    \(clean(ExchangeDetail.encode(headers: detail.responseHeaders))),
                    \(detail.responseBody.map { ByteBuffer(bytes: $0) }),
                    openresponses_search_vector(\(clean(text))))
                ON CONFLICT (origin, origin_id) DO NOTHING
                RETURNING id
                """, logger: logger)
            var inserted: Int64?
            for try await id in rows.decode(Int64.self) { inserted = id }
            guard let inserted else {
                // Already there: the same exchange pushed before (the same start within a millisecond and the same
                // request bytes), or another store's that has this store's identity (a copied data directory).
                let same = try await connection.query(
                    """
                    SELECT abs(extract(epoch FROM started_at - \(summary.startedAt))) < 0.001
                        AND request_body = \(ByteBuffer(bytes: detail.requestBody))
                    FROM exchange WHERE origin = \(origin) AND origin_id = \(summary.id)
                    """, logger: logger)
                for try await isSame in same.decode(Bool.self) where !isSame {
                    throw SharedIdentity(localID: summary.id)
                }
                return nil
            }
            // The events in statements of at most `chunk` rows (PostgreSQL takes 65,535 parameters at most).
            let chunk = 8000
            var start = 0
            while start < detail.events.count {
                let events = detail.events[start..<min(start + chunk, detail.events.count)]
                var query = PostgresQuery(
                    unsafeSQL: "INSERT INTO event (exchange_id, idx, sequence_number, offset_ms, type, data) VALUES ")
                var bindings = PostgresBindings(capacity: events.count * 6)
                var values: [String] = []
                values.reserveCapacity(events.count)
                for event in events {
                    let base = bindings.count
                    values.append(
                        "($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4), $\(base + 5), $\(base + 6))")
                    bindings.append(inserted)
                    bindings.append(event.index)
                    bindings.append(event.sequenceNumber)
                    bindings.append(event.offsetMs)
                    bindings.append(clean(event.type))
                    bindings.append(ByteBuffer(bytes: event.data))
                }
                query = PostgresQuery(unsafeSQL: query.sql + values.joined(separator: ", "), binds: bindings)
                try await connection.query(query, logger: logger)
                start += chunk
            }
            return inserted
        }

        /// Text as PostgreSQL's `text` takes it: it cannot hold U+0000, which a server's strings may carry
        /// (the exact bytes are in the bodies and events, as `bytea`). Each NUL becomes U+FFFD.
        static func clean(_ text: String) -> String {
            guard text.utf8.contains(0) else { return text }
            return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
        }

        static func clean(_ text: String?) -> String? { text.map { clean($0) } }
    }
#endif
