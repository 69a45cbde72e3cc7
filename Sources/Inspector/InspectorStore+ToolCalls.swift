import Foundation
import GRDB
import ResponsesAPI

/// A call a turn made to a local MCP server, kept with the response that asked for it (`tool_call`): shown by
/// `inspect show` of that exchange and in `history show|export`.
public struct ToolCallEntry: Sendable, Hashable {
    public var responseID: String
    public var callID: String
    public var session: String?
    public var server: String
    public var tool: String
    public var arguments: String
    /// The output's text, or why it failed or did not run.
    public var result: String
    /// completed, failed or declined.
    public var status: String
    public var durationMs: Double
    public var recordedAt: Date

    public var json: JSONValue {
        [
            "response_id": .string(responseID), "call_id": .string(callID), "server": .string(server),
            "tool": .string(tool), "arguments": .string(arguments), "result": .string(result),
            "status": .string(status), "duration_ms": .number(durationMs),
            "recorded_at": .string(InspectorStore.timestamp(recordedAt)),
        ]
    }
}

extension InspectorStore {
    /// Longest result kept per call: a server's answer can be large, and its whole text is in the next
    /// request's body anyway.
    static let maximumToolResultBytes = 64 << 10

    /// Keeps one call (`ToolCallEntry`'s fields).
    public func recordToolCall(
        responseID: String, callID: String, session: String?, server: String, tool: String, arguments: String,
        result: String, status: String, durationMs: Double, at date: Date
    ) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO tool_call (response_id, call_id, session, server, tool, arguments, result, status,
                        duration_ms, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    responseID, callID, session, server, tool, arguments,
                    String(decoding: result.utf8.prefix(Self.maximumToolResultBytes), as: UTF8.self), status,
                    durationMs, StorageDate.string(date),
                ])
        }
    }

    /// The calls kept for each of `responseIDs`, in the order they were made.
    public func toolCalls(forResponses responseIDs: [String]) async throws -> [String: [ToolCallEntry]] {
        guard !responseIDs.isEmpty else { return [:] }
        return try await writer.read { db in
            var found: [String: [ToolCallEntry]] = [:]
            let marks = Array(repeating: "?", count: responseIDs.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM tool_call WHERE response_id IN (\(marks)) ORDER BY id",
                arguments: StatementArguments(responseIDs))
            for row in rows {
                let entry = ToolCallEntry(
                    responseID: row["response_id"], callID: row["call_id"], session: row["session"],
                    server: row["server"], tool: row["tool"], arguments: row["arguments"], result: row["result"],
                    status: row["status"], durationMs: row["duration_ms"],
                    recordedAt: row["recorded_at"])
                found[entry.responseID, default: []].append(entry)
            }
            return found
        }
    }
}
