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

    /// Gives the store a new identity in place of `old`, when a team store showed that another store has it
    /// (its data directory was copied): what it pushes from now on is told apart from the copy's. The exchanges
    /// it pushed before stay under the old one. When another process sharing this store changed it first, that
    /// identity is kept (two new ones would push the same exchanges twice). Returns the identity now.
    @discardableResult
    public func takeNewIdentity(replacing old: String) async throws -> String {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE store_identity SET id = lower(hex(randomblob(16))) WHERE id = ?", arguments: [old])
            return try String.fetchOne(db, sql: "SELECT id FROM store_identity") ?? ""
        }
    }

    /// The most one exchange may hold to be pushed (bodies, texts and events as read back): a team store takes
    /// a row in one message, and an exchange that cannot go must not hold back the ones after it.
    public static let pushLimit = 256 << 20

    /// The finished exchanges not yet pushed to `destination` (nor refused by it), oldest first: at most
    /// `maximumCount`, and no more than `maximumBytes` once the first is taken (an exchange with a 50 MB answer
    /// comes alone). An exchange still being recorded waits for its end. One larger than `pushLimit` is noted as
    /// refused here (its stored size is looked at before it is read, its whole size after) and is not returned.
    /// Only ids from `floor` on are looked at (`pushFloor`).
    public func exchangesToPush(
        destination: String, from floor: Int64 = 0, maximumCount: Int = 200, maximumBytes: Int = 16 << 20
    ) async throws -> [PushedExchange] {
        let (exchanges, tooLarge) = try await writer.read { db -> ([PushedExchange], [(Int64, Int)]) in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id,
                           COALESCE(length(request_body), 0) + COALESCE(length(response_body), 0)
                           + COALESCE((SELECT length(body) FROM exchange_request WHERE exchange_id = exchange.id), 0)
                           + COALESCE((SELECT sum(length(data)) FROM event_batch WHERE exchange_id = exchange.id), 0)
                           AS stored
                    FROM exchange
                    WHERE id >= ? AND state != 'in_progress'
                      AND NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id)
                    ORDER BY id LIMIT ?
                    """, arguments: [floor, destination, maximumCount])
            let texts = try db.cachedStatement(
                sql: "SELECT input_text, output_text, event_text FROM exchange WHERE id = ?")
            var exchanges: [PushedExchange] = []
            var tooLarge: [(Int64, Int)] = []
            var bytes = 0
            for row in rows {
                let id: Int64 = row["id"]
                let stored: Int = row["stored"]
                if stored > Self.pushLimit {
                    tooLarge.append((id, stored))
                    continue
                }
                if !exchanges.isEmpty, bytes + stored > maximumBytes { break }
                guard let detail = try Self.detail(id: id, db: db), let text = try Row.fetchOne(texts, arguments: [id])
                else { continue }
                let exchange = PushedExchange(
                    detail: detail, inputText: text["input_text"] ?? "", outputText: text["output_text"] ?? "",
                    eventText: text["event_text"] ?? "")
                if exchange.size > Self.pushLimit {
                    tooLarge.append((id, exchange.size))
                    continue
                }
                if !exchanges.isEmpty, bytes + exchange.size > maximumBytes { break }
                bytes += exchange.size
                exchanges.append(exchange)
            }
            return (exchanges, tooLarge)
        }
        for (id, size) in tooLarge {
            try await notePushRefused(
                id, destination: destination,
                reason: "\(size >> 20) MB, more than the \(Self.pushLimit >> 20) MB an exchange may hold to be pushed")
        }
        return exchanges
    }

    /// The smallest id that may still have to go to `destination`, given that none below `floor` has to: the
    /// first exchange from `floor` on still being recorded or not pushed, else the next id the store will give.
    /// A pusher that keeps it between pushes (the proxy, every second) looks at the exchanges since, not the
    /// whole history each time.
    public func pushFloor(destination: String, from floor: Int64 = 0) async throws -> Int64 {
        try await writer.read { db in
            let first = try Int64.fetchOne(
                db,
                sql: """
                    SELECT id FROM exchange
                    WHERE id >= ? AND (state = 'in_progress'
                      OR NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id))
                    ORDER BY id LIMIT 1
                    """, arguments: [floor, destination])
            if let first { return first }
            let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM exchange") ?? 0
            return max(floor, last + 1)
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
    /// Only ids from `floor` on are counted as waiting (`pushFloor`).
    public func pushBacklog(destination: String, from floor: Int64 = 0) async throws -> (waiting: Int, refused: Int) {
        try await writer.read { db in
            let waiting =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM exchange
                        WHERE id >= ? AND state != 'in_progress'
                          AND NOT EXISTS (SELECT 1 FROM team_push WHERE destination = ? AND exchange_id = exchange.id)
                        """, arguments: [floor, destination]) ?? 0
            let refused =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM team_push WHERE destination = ? AND failure IS NOT NULL",
                    arguments: [destination]) ?? 0
            return (waiting, refused)
        }
    }
}

extension InspectorStore {
    /// What `user` has spent since `since` in the exchanges not in team store `destination` (not pushed yet, or
    /// refused by it): added to the team store's own figure, the whole of it without counting an exchange twice.
    public func spent(user: String, since: Date, notPushedTo destination: String) async throws -> Double {
        try await writer.read { db in
            try Double.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(cost_usd), 0) FROM exchange
                    WHERE user = ? AND started_at >= ?
                      AND NOT EXISTS (
                          SELECT 1 FROM team_push
                          WHERE destination = ? AND exchange_id = exchange.id AND failure IS NULL)
                    """, arguments: [user, StorageDate.string(since), destination]) ?? 0
        }
    }
}
