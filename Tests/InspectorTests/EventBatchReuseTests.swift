import Foundation
import GRDB
import ResponsesAPI
import Testing

@testable import Inspector

/// A batch's buffer goes into the database and comes back for the next batch: a long recording does not get
/// new memory (faulted in page by page) for every megabyte of events.
@Suite("Event batch buffers reused")
struct EventBatchReuseTests {
    /// Events of `size` bytes each, `count` of them, from index `first`.
    func events(first: Int, count: Int, size: Int) -> RecordedEvents {
        var events = RecordedEvents()
        for index in first..<(first + count) {
            events.append(
                index: index, offset: .microseconds(index), type: "response.output_text.delta", sequenceNumber: index,
                data: Array(repeating: UInt8(ascii: "a") &+ UInt8(index % 26), count: size))
        }
        return events
    }

    @Test func theNextBatchWritesIntoTheBufferTheLastOneWasStoredFrom() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("or-reuse-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try InspectorStore.open(at: path)
        try await store.writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO exchange (id, started_at, method, url, request_headers) VALUES (1, '2026-11-27', 'POST', 'u', '[]')"
            )
        }
        var batch = EventBatch()
        var addresses: [Int] = []
        for round in 0..<4 {
            batch.append(events(first: round * 100, count: 100, size: 2000))
            addresses.append(batch.data.withUnsafeBytes { Int(bitPattern: $0.baseAddress) })
            // As the recorder's writer commits a batch: the write reads it from the handoff, then it comes back.
            let handoff = EventBatch.Handoff(batch.pack(redactor: Redactor(secrets: [])))
            try await store.writer.write { db in
                if let packed = handoff.batch { try EventBatch.insert(packed, exchange: 1, db: db) }
            }
            var packed = try #require(handoff.take())
            #expect(handoff.take() == nil)
            batch.recycle(&packed)
            #expect(batch.isEmpty && batch.data.isEmpty)
            #expect(batch.data.capacity >= 200_000, "the batch keeps the buffer's capacity")
            #expect(packed.data.count == 0, "the buffer went back to the batch, not a copy of it")
        }
        // The first batch grew its buffer; every later one wrote into that same buffer.
        #expect(Set(addresses.dropFirst()).count == 1, "\(addresses)")
        #expect(addresses[1] != 0)
        let rows = try await store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT idx, length(data) AS size FROM event ORDER BY idx")
        }
        #expect(rows.map { $0["idx"] as Int } == Array(0..<400))
        #expect(rows.allSatisfy { $0["size"] as Int == 2000 })
    }
}
