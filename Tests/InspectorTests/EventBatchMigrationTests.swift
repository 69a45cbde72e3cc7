import Foundation
import GRDB
import ResponsesAPI
import Testing

@testable import Inspector

/// Migration v4 moves events from one row each into batches; the `event` view gives back the same rows.
@Suite("Event batches")
struct EventBatchMigrationTests {
    @Test func eventsWrittenBeforeV4ReadTheSameAfterIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("or-v4-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pool = try DatabasePool(path: path)
        let migrator = InspectorStore.migrator
        try migrator.migrate(pool, upTo: "v3-search-cost")
        let rows: [(Int, Int?, Double, String, DatabaseValue)] = [
            (0, 0, 1.5, "response.created", #"{"type":"response.created"}"#.databaseValue),
            (1, nil, 2.25, "ping", "é unicode ✓".databaseValue),
            (2, 2, 3.0, "odd", Data([0xFF, 0x00, 0x41]).databaseValue),
        ]
        try pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO exchange (id, started_at, method, url, request_headers) VALUES (7, '2026-11-22', 'POST', 'u', '[]')"
            )
            for (idx, sequence, offset, type, data) in rows {
                try db.execute(
                    sql:
                        "INSERT INTO event (exchange_id, idx, sequence_number, offset_ms, type, data) VALUES (7, ?, ?, ?, ?, ?)",
                    arguments: [idx, sequence, offset, type, data])
            }
        }
        let before = try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY idx") }
        try migrator.migrate(pool)
        let after = try pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT exchange_id, idx, sequence_number, offset_ms, type, data FROM event ORDER BY idx")
        }
        #expect(after == before)
        let kinds = try pool.read { db in try String.fetchAll(db, sql: "SELECT typeof(data) FROM event ORDER BY idx") }
        #expect(kinds == ["text", "text", "blob"])
    }
}
