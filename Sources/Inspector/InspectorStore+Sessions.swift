import Foundation
import GRDB

/// Conversations as the inspector keeps them: the exchanges of one console session, searched, read whole
/// (for `history show` and `export`) and deleted.
extension InspectorStore {
    /// Sessions whose exchanges' input, output or event texts hold every word of `search` (each word in
    /// any of its turns), newest first.
    public func sessions(search: String, limit: Int) async throws -> [SessionSummary] {
        let words = search.split(whereSeparator: { $0.isWhitespace }).compactMap { ExchangeQuery.ftsQuery(String($0)) }
        guard !words.isEmpty else { return [] }
        let eachWord = Array(
            repeating: """
                session IN (SELECT session FROM exchange WHERE session IS NOT NULL
                  AND id IN (SELECT rowid FROM exchange_fts WHERE exchange_fts MATCH ?))
                """, count: words.count
        ).joined(separator: " AND ")
        var arguments = StatementArguments(words)
        arguments += [limit]
        return try await writer.read { [arguments] db in
            try SessionSummary.fetchAll(
                db,
                sql: SessionSummary.select + " WHERE " + eachWord + " GROUP BY session ORDER BY MAX(id) DESC LIMIT ?",
                arguments: arguments)
        }
    }

    /// Sessions whose id starts with `prefix` (an exact id first), newest first, at most `limit`.
    public func sessions(prefix: String, limit: Int) async throws -> [SessionSummary] {
        guard !prefix.isEmpty else { return [] }
        return try await writer.read { db in
            try SessionSummary.fetchAll(
                db,
                sql: SessionSummary.select
                    + " WHERE session LIKE ? ESCAPE '\\' GROUP BY session ORDER BY session = ? DESC, MAX(id) DESC LIMIT ?",
                arguments: [ExchangeQuery.likePrefix(prefix) + "%", prefix, limit])
        }
    }

    /// Every exchange of session `id`, oldest first, with bodies and events.
    public func exchanges(inSession id: String) async throws -> [ExchangeDetail] {
        try await writer.read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM exchange WHERE session = ? ORDER BY id", arguments: [id])
            return try ids.compactMap { try Self.detail(id: $0, db: db) }
        }
    }

    /// Deletes session `id`'s exchanges (their events, bodies and search text with them); returns how
    /// many. The ledger keeps its entries: the objects are still on their servers.
    public func deleteSession(_ id: String) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM exchange_fts WHERE rowid IN (SELECT id FROM exchange WHERE session = ?)",
                arguments: [id])
            try db.execute(sql: "DELETE FROM exchange WHERE session = ?", arguments: [id])
            return db.changesCount
        }
    }
}
