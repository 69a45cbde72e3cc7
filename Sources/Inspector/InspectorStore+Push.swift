import Foundation
import GRDB

/// One finished exchange as a team store receives it (`inspect push`, `inspector.url`): everything `inspect
/// show` has, and the texts search looks through.
public struct PushedExchange: Sendable {
    public var detail: ExchangeDetail
    public var inputText: String
    public var outputText: String
    public var eventText: String

    public init(detail: ExchangeDetail, inputText: String, outputText: String, eventText: String) {
        self.detail = detail
        self.inputText = inputText
        self.outputText = outputText
        self.eventText = eventText
    }

    /// Roughly what the exchange holds in memory: its bodies and events.
    public var size: Int {
        detail.requestBody.count + (detail.responseBody?.count ?? 0)
            + detail.events.reduce(0) { $0 + $1.data.count + 64 } + inputText.utf8.count + outputText.utf8.count
            + eventText.utf8.count
    }
}

extension InspectorStore {
    /// The store's own name (made once by its migration), by which a team store knows which exchanges it
    /// already has from it: `(identity, local id)` is unique there.
    public func identity() async throws -> String {
        try await writer.read { db in try String.fetchOne(db, sql: "SELECT id FROM store_identity") ?? "" }
    }

    /// The finished exchanges not yet pushed to `destination` (nor refused by it), oldest first: at most
    /// `maximumCount`, and no more than `maximumBytes` once the first is taken (an exchange with a 50 MB answer
    /// comes alone). An exchange still being recorded waits for its end.
    public func exchangesToPush(destination: String, maximumCount: Int = 200, maximumBytes: Int = 16 << 20)
        async throws -> [PushedExchange]
    {
        try await writer.read { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM exchange
                    WHERE state != 'in_progress'
                      AND NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id)
                    ORDER BY id LIMIT ?
                    """, arguments: [destination, maximumCount])
            let texts = try db.cachedStatement(
                sql: "SELECT input_text, output_text, event_text FROM exchange WHERE id = ?")
            var exchanges: [PushedExchange] = []
            var bytes = 0
            for id in ids {
                guard let detail = try Self.detail(id: id, db: db), let row = try Row.fetchOne(texts, arguments: [id])
                else { continue }
                let exchange = PushedExchange(
                    detail: detail, inputText: row["input_text"] ?? "", outputText: row["output_text"] ?? "",
                    eventText: row["event_text"] ?? "")
                if !exchanges.isEmpty, bytes + exchange.size > maximumBytes { break }
                bytes += exchange.size
                exchanges.append(exchange)
            }
            return exchanges
        }
    }

    /// Notes exchanges as in `destination` now.
    public func notePushed(_ ids: [Int64], destination: String) async throws {
        try await writer.write { db in
            let insert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO team_push (destination, exchange_id, failure) VALUES (?, ?, NULL)")
            for id in ids { try insert.execute(arguments: [destination, id]) }
        }
    }

    /// Notes that `destination` refused exchange `id` for `reason` (not a connection's failure: the exchange
    /// itself), so that it does not hold back the ones after it. `inspect push --retry-refused` tries again.
    public func notePushRefused(_ id: Int64, destination: String, reason: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO team_push (destination, exchange_id, failure) VALUES (?, ?, ?)",
                arguments: [destination, id, reason])
        }
    }

    /// Forgets the refusals of `destination`, so that those exchanges are pushed again.
    public func forgetPushRefusals(destination: String) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM team_push WHERE destination = ? AND failure IS NOT NULL", arguments: [destination])
            return db.changesCount
        }
    }

    /// How many finished exchanges wait for `destination`, and how many it refused.
    public func pushBacklog(destination: String) async throws -> (waiting: Int, refused: Int) {
        try await writer.read { db in
            let waiting =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM exchange
                        WHERE state != 'in_progress'
                          AND NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id)
                        """, arguments: [destination]) ?? 0
            let refused =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM team_push WHERE destination = ? AND failure IS NOT NULL",
                    arguments: [destination]) ?? 0
            return (waiting, refused)
        }
    }
}

extension InspectorStore {
    /// What `user` has spent since `since` in the exchanges not yet in team store `destination`: added to the
    /// team store's own figure, the whole of it without counting an exchange twice.
    public func spent(user: String, since: Date, notPushedTo destination: String) async throws -> Double {
        try await writer.read { db in
            try Double.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(cost_usd), 0) FROM exchange
                    WHERE user = ? AND started_at >= ?
                      AND NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id)
                    """, arguments: [user, StorageDate.string(since), destination]) ?? 0
        }
    }
}
