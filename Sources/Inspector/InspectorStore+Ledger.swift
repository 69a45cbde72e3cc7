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
                        id, kind.rawValue, StorageDate.string(request.startedAt), expiresAt.map(StorageDate.string), baseURL,
                        exchangeID, request.context.labels["provider"] ?? provider, request.context.labels["source"] ?? "console",
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
    public func ledger(type: String? = nil, createdBefore: Date? = nil, includingDeleted: Bool = false) async throws -> [LedgerEntry] {
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
            try LedgerEntry.fetchAll(db, sql: "SELECT * FROM ledger \(filter) ORDER BY created_at, object_id", arguments: all)
        }
    }

    /// Marks an object gone (deleted by `ledger gc`, or found missing by `ledger verify`).
    public func markDeleted(_ id: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE ledger SET deleted_at = ? WHERE object_id = ?", arguments: [StorageDate.string(date), id])
        }
    }
}
