import Foundation
import GRDB
import ResponsesAPI

extension InspectorStore {
    /// The most recent exchanges, newest first.
    public func recentExchanges(limit: Int = 50) async throws -> [ExchangeSummary] {
        try await exchanges(matching: ExchangeQuery(limit: limit))
    }

    /// The exchanges `query` selects, newest first.
    public func exchanges(matching query: ExchangeQuery) async throws -> [ExchangeSummary] {
        let (filter, arguments) = query.filter
        var withLimit = arguments
        _ = withLimit.append(contentsOf: [query.limit])
        let all = withLimit
        return try await writer.read { db in
            try ExchangeSummary.fetchAll(
                db, sql: "SELECT \(ExchangeSummary.columns) FROM exchange \(filter) ORDER BY id DESC LIMIT ?",
                arguments: all)
        }
    }

    /// What `inspect watch` polls: the exchanges after `id` and the current rows of `ids` (those it saw in
    /// progress), oldest first.
    public func exchanges(after id: Int64, among ids: [Int64]) async throws -> [ExchangeSummary] {
        let marks = ids.isEmpty ? "" : " OR id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
        var arguments = StatementArguments([id])
        _ = arguments.append(contentsOf: StatementArguments(ids))
        let all = arguments
        return try await writer.read { db in
            try ExchangeSummary.fetchAll(
                db, sql: "SELECT \(ExchangeSummary.columns) FROM exchange WHERE id > ?\(marks) ORDER BY id",
                arguments: all)
        }
    }

    /// The newest exchange that replays `id`, if any.
    public func latestReplay(of id: Int64, after earliest: Int64 = 0) async throws -> Int64? {
        try await writer.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM exchange WHERE replay_of = ? AND id > ? ORDER BY id DESC LIMIT 1",
                arguments: [id, earliest])
        }
    }

    /// The largest exchange id so far (0 in an empty store): what a run's own exchanges come after.
    public func lastExchangeID() async throws -> Int64 {
        try await writer.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM exchange") ?? 0 }
    }

    /// Every exchange started at or after `since` (all when nil), oldest first, one at a time: for
    /// `inspect export`, which must not hold the whole store in memory.
    public func forEachExchange(since: Date?, _ body: (ExchangeDetail) throws -> Void) async throws {
        let ids = try await writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM exchange WHERE started_at >= ? ORDER BY id",
                arguments: [StorageDate.string(since ?? Date(timeIntervalSince1970: 0))])
        }
        // A few hundred to a read: one transaction each, not one per exchange (10,000 exchanges: 10,000 hops
        // to the reader's thread), and few enough in memory at once.
        var start = 0
        while start < ids.count {
            let slice = Array(ids[start..<min(start + 200, ids.count)])
            let details = try await writer.read { db in try slice.compactMap { try Self.detail(id: $0, db: db) } }
            for detail in details { try body(detail) }
            start += slice.count
        }
    }

    /// Deletes the exchanges started before `date` (their events and search entries with them); returns
    /// how many went.
    @discardableResult
    public func prune(before date: Date) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM exchange_fts WHERE rowid IN (SELECT id FROM exchange WHERE started_at < ?)",
                arguments: [StorageDate.string(date)])
            try db.execute(sql: "DELETE FROM exchange WHERE started_at < ?", arguments: [StorageDate.string(date)])
            return db.changesCount
        }
    }

    /// One exchange with its headers, bodies and events; nil when there is no such id.
    public func exchange(id: Int64) async throws -> ExchangeDetail? {
        try await writer.read { db in try Self.detail(id: id, db: db) }
    }

    /// One exchange's summary and exact request body, without its events (nil when there is no such id):
    /// what a list of requests needs, at the cost of one row however long the answer was.
    public func request(ofExchange id: Int64) async throws -> (summary: ExchangeSummary, body: [UInt8])? {
        try await writer.read { db in
            guard
                let summary = try ExchangeSummary.fetchOne(
                    db.cachedStatement(sql: "SELECT \(ExchangeSummary.columns) FROM exchange WHERE id = ?"),
                    arguments: [id])
            else { return nil }
            let body = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Self.requestBodyColumn) FROM exchange WHERE id = ?"),
                arguments: [id])
            return (summary, body.flatMap { Self.bytes($0["request_body"]) } ?? [])
        }
    }

    /// An exchange's request body, wherever it is kept: in its row, or (over a mebibyte) in `exchange_request`.
    static let requestBodyColumn = """
        COALESCE(request_body, (SELECT body FROM exchange_request WHERE exchange_id = exchange.id)) AS request_body
        """

    /// One exchange read inside a read transaction, with cached statements (`forEachExchange` reads
    /// hundreds in one).
    static func detail(id: Int64, db: Database) throws -> ExchangeDetail? {
        let summaries = try db.cachedStatement(sql: "SELECT \(ExchangeSummary.columns) FROM exchange WHERE id = ?")
        let rest = try db.cachedStatement(
            sql: """
                SELECT request_headers, \(Self.requestBodyColumn), response_headers, response_body, response_status,
                       ttfb_ms, cached_tokens, reasoning_tokens, total_tokens, replay_of
                FROM exchange WHERE id = ?
                """)
        guard let summary = try ExchangeSummary.fetchOne(summaries, arguments: [id]),
            let row = try Row.fetchOne(rest, arguments: [id])
        else { return nil }
        let events = try EventBatch.storedEvents(exchange: id, db: db)
        return ExchangeDetail(
            summary: summary, requestHeaders: headers(row["request_headers"]),
            requestBody: bytes(row["request_body"]) ?? [],
            responseHeaders: headers(row["response_headers"]), responseBody: bytes(row["response_body"]),
            responseStatus: row["response_status"], ttfbMs: row["ttfb_ms"], cachedTokens: row["cached_tokens"],
            reasoningTokens: row["reasoning_tokens"], totalTokens: row["total_tokens"], replayOf: row["replay_of"],
            events: events)
    }

    /// The events the recorded streams of response `responseID` brought (each sequence number once, in
    /// order): what `attach` has already shown of a background response, and where its stream resumes.
    public func recordedStreamEvents(responseID: String) async throws -> [StoredEvent] {
        try await writer.read { db in
            var bySequence: [Int: StoredEvent] = [:]
            for id in try Int64.fetchAll(
                db, sql: "SELECT id FROM exchange WHERE response_id = ? AND streamed = 1 ORDER BY id",
                arguments: [responseID])
            {
                for event in try EventBatch.storedEvents(exchange: id, db: db) {
                    if let sequence = event.sequenceNumber, bySequence[sequence] == nil { bySequence[sequence] = event }
                }
            }
            return bySequence.keys.sorted().compactMap { bySequence[$0] }
        }
    }

    /// Marks exchanges left `in_progress` by a process that no longer runs as `interrupted` (their events stay).
    @discardableResult
    public func markInterruptedExchanges() throws -> Int {
        try writer.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, pid FROM exchange WHERE state = 'in_progress'")
            var marked = 0
            for row in rows {
                let pid: Int64? = row["pid"]
                if let pid, pid > 0, kill(pid_t(pid), 0) == 0 || errno == EPERM { continue }
                try db.execute(
                    sql: "UPDATE exchange SET state = 'interrupted' WHERE id = ?", arguments: [row["id"] as Int64])
                marked += 1
            }
            return marked
        }
    }

    static func bytes(_ value: DatabaseValue) -> [UInt8]? {
        switch value.storage {
        case .string(let text): return Array(text.utf8)
        case .blob(let data): return Array(data)
        default: return nil
        }
    }

    static func headers(_ value: DatabaseValue) -> [(String, String)] {
        guard let bytes = bytes(value), let json = try? JSONValue.parse(bytes), let pairs = json.arrayValue else {
            return []
        }
        return pairs.compactMap { pair in
            guard let name = pair[0]?.stringValue, let value = pair[1]?.stringValue else { return nil }
            return (name, value)
        }
    }

    /// `2026-11-21T14:03:05.123Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
