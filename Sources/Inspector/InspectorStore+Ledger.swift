import Foundation
import GRDB
import ResponsesAPI

/// The ledger's reads and writes (`LedgerEntry`, table `ledger`).
extension InspectorStore {
    /// Records what exchange `exchangeID` (`request`) created or deleted.
    func apply(_ change: LedgerChange, exchangeID: Int64, request: ExchangeRequest, provider: String?) async throws {
        try await writer.write { db in
            switch change {
            case .created(let id, let kind, let label, let expiresAt, let baseURL):
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO ledger (object_id, type, created_at, expires_at, base_url, exchange_id,
                                                      provider, source, session, preset, label)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, kind.rawValue, StorageDate.string(request.startedAt), expiresAt.map(StorageDate.string),
                        baseURL,
                        exchangeID, request.context.labels["provider"] ?? provider,
                        request.context.labels["source"] ?? "console",
                        request.context.session, request.context.preset, label,
                    ])
            case .deleted(let id):
                try db.execute(
                    sql: "UPDATE ledger SET deleted_at = ? WHERE object_id = ? AND deleted_at IS NULL",
                    arguments: [StorageDate.string(request.startedAt), id])
            }
        }
    }

    /// The ledger, oldest first: objects of `type` (all types when nil) created before `createdBefore`,
    /// without those known to be deleted unless `includingDeleted`.
    public func ledger(type: String? = nil, createdBefore: Date? = nil, includingDeleted: Bool = false) async throws
        -> [LedgerEntry]
    {
        try await readLedger(type: type, createdBefore: createdBefore, includingDeleted: includingDeleted).entries
    }

    /// The ledger's entries that cannot be read (a date that is not what the store writes), as
    /// `OBJECT_ID: what is wrong`: `ledger` leaves them out.
    public func unreadableLedgerEntries() async throws -> [String] {
        try await readLedger(includingDeleted: true).unreadable
    }

    /// The selected entries in one read, row by row: an entry that cannot be read (a date changed by hand)
    /// is left out of `entries` and named in `unreadable`, so that one bad row does not hide the others.
    public func readLedger(
        type: String? = nil, createdBefore: Date? = nil, includingDeleted: Bool = false
    ) async throws -> (entries: [LedgerEntry], unreadable: [String]) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        if let type {
            clauses.append("type = ?")
            _ = arguments.append(contentsOf: [type])
        }
        if let createdBefore {
            clauses.append("created_at < ?")
            _ = arguments.append(contentsOf: [StorageDate.string(createdBefore)])
        }
        if !includingDeleted { clauses.append("deleted_at IS NULL") }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let all = arguments
        return try await writer.read { db in
            var entries: [LedgerEntry] = []
            var unreadable: [String] = []
            for row in try Row.fetchAll(
                db, sql: "SELECT * FROM ledger \(filter) ORDER BY created_at, object_id", arguments: all)
            {
                do {
                    entries.append(try LedgerEntry(row: row))
                } catch {
                    unreadable.append(Self.unreadable(row))
                }
            }
            return (entries, unreadable)
        }
    }

    /// `OBJECT_ID: what is wrong` for a ledger row that does not decode.
    static func unreadable(_ row: Row) -> String {
        let id = String.fromDatabaseValue(row["object_id"] as DatabaseValue) ?? "?"
        let dates = ["created_at", "expires_at", "deleted_at"].filter { column in
            let value = row[column] as DatabaseValue
            return !value.isNull && Date.fromDatabaseValue(value) == nil
        }
        let reason = dates.map {
            "\($0) \(String(describing: (row[$0] as DatabaseValue).storage.value ?? "").debugDescription) is not a date"
        }
        return "\(id): " + (reason.isEmpty ? "its row cannot be read" : reason.joined(separator: ", "))
    }

    /// Adds an object no recorded exchange created but one of them named (a batch's output and error files,
    /// which the server makes): kept until `ledger gc` deletes it. Nothing changes when the ledger has it.
    public func noteObject(
        id: String, kind: LedgerEntry.Kind, label: String?, baseURL: String, provider: String?, createdAt: Date,
        expiresAt: Date? = nil
    ) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO ledger (object_id, type, created_at, expires_at, base_url, provider, source,
                                                  label)
                    VALUES (?, ?, ?, ?, ?, ?, 'batch', ?)
                    """,
                arguments: [
                    id, kind.rawValue, StorageDate.string(createdAt), expiresAt.map(StorageDate.string), baseURL,
                    provider, label,
                ])
        }
    }

    /// The `custom_id`s of batch `batchID`'s results already recorded to their end (one a run left unfinished is
    /// recorded again).
    public func recordedBatchRequests(batchID: String) async throws -> Set<String> {
        try await writer.read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT batch_request FROM exchange
                        WHERE batch_id = ? AND batch_request IS NOT NULL AND state IN ('completed', 'incomplete', 'failed')
                        """,
                    arguments: [batchID]))
        }
    }

    /// Marks an object gone (deleted by `ledger gc`, or found missing by `ledger verify`).
    public func markDeleted(_ id: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE ledger SET deleted_at = ? WHERE object_id = ?", arguments: [StorageDate.string(date), id])
        }
    }
}
