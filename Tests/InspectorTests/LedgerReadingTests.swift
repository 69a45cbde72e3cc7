import Foundation
import GRDB
import Inspector
import Testing

/// One ledger row that cannot be read (a date changed by hand) is left out and named; the others are read.
@Suite("Reading the ledger")
struct LedgerReadingTests {
    @Test func anUnreadableRowIsLeftOutAndNamed() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let queue = try DatabaseQueue(path: store.directory.appendingPathComponent("inspector.sqlite").path)
        try await queue.write { db in
            for (id, created) in [
                ("resp_good", "2026-11-25 10:00:00.000"), ("resp_bad", "garbage"),
                ("resp_later", "2026-11-25 11:00:00.000"),
            ] {
                try db.execute(
                    sql:
                        "INSERT INTO ledger (object_id, type, created_at, base_url) VALUES (?, 'response', ?, 'http://x/v1')",
                    arguments: [id, created])
            }
        }
        try queue.close()
        let entries = try await store.store.ledger(type: "response")
        #expect(entries.map(\.objectId) == ["resp_good", "resp_later"])
        #expect(try await store.store.unreadableLedgerEntries() == [#"resp_bad: created_at "garbage" is not a date"#])
    }
}
