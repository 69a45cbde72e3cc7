import Foundation
import GRDB
import Untrusted

/// One console session (a conversation) as the inspector saw it: its exchanges grouped by `session`.
public struct SessionSummary: Sendable, Hashable, FetchableRecord {
    public var id: String
    public var firstAt: Date
    public var lastAt: Date
    /// Exchanges in the session (tool rounds count as exchanges).
    public var turns: Int
    /// The input of its first exchange, as searchable text.
    public var firstInput: String?
    /// The newest response id a completed exchange of the session produced (what `/resume` chains to).
    public var lastResponseID: String?

    public init(row: Row) throws {
        id = row["session"]
        firstAt = row["first_at"]
        lastAt = row["last_at"]
        turns = row["turns"]
        firstInput = row["first_input"]
        lastResponseID = row["last_response_id"]
    }

    static let select = """
        SELECT session, MIN(started_at) AS first_at, MAX(started_at) AS last_at, COUNT(*) AS turns,
          (SELECT input_text FROM exchange AS first WHERE first.session = e.session ORDER BY id LIMIT 1) AS first_input,
          (SELECT response_id FROM exchange AS last WHERE last.session = e.session AND last.response_id IS NOT NULL
             AND last.state = 'completed' ORDER BY id DESC LIMIT 1) AS last_response_id
        FROM exchange AS e
        """
}

extension InspectorStore {
    /// Sessions, newest first.
    public func sessions(limit: Int, offset: Int = 0) async throws -> [SessionSummary] {
        try await writer.read { db in
            try SessionSummary.fetchAll(
                db,
                sql: SessionSummary.select
                    + " WHERE session IS NOT NULL GROUP BY session ORDER BY MAX(id) DESC LIMIT ? OFFSET ?",
                arguments: [limit, offset])
        }
    }

    /// The newest session whose id starts with `prefix`.
    public func session(matching prefix: String) async throws -> SessionSummary? {
        guard !prefix.isEmpty else { return nil }
        return try await writer.read { db in
            try SessionSummary.fetchOne(
                db,
                sql: SessionSummary.select
                    + " WHERE session LIKE ? ESCAPE '\\' GROUP BY session ORDER BY MAX(id) DESC LIMIT 1",
                arguments: [LikePattern.literal(prefix) + "%"])
        }
    }
}
