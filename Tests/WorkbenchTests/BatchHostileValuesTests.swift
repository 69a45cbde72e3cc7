import Foundation
import ResponsesAPI
import Testing
import Workbench

/// A hostile server's batch object: counts and times far out of range are clamped where they are read, so no sum,
/// estimate or date written from them can trap; an unknown status ends a wait instead of holding it forever.
@Suite("Batch hostile values")
struct BatchHostileValuesTests {
    @Test func countsAndTimesAreClamped() {
        let batch = BatchObject(
            json: [
                "id": "batch_1", "status": "in_progress", "in_progress_at": 1, "created_at": 1e300,
                "request_counts": ["total": .integer(Int.max), "completed": .integer(Int.max), "failed": 1],
            ])
        #expect(batch.total == 1 << 40 && batch.completed == 1 << 40 && batch.failed == 1)
        #expect(batch.createdAt == Date(timeIntervalSince1970: 253_402_300_799))
        let progress = BatchProgress(now: { Date(timeIntervalSince1970: 2_000_000_000) })
        // A rate of about 5e-10 a second over 2^40 requests: no estimate, and no trap.
        let slow = BatchObject(
            json: [
                "id": "batch_2", "status": "in_progress", "in_progress_at": 1,
                "request_counts": ["total": 10_000_000_000, "completed": 1, "failed": 0],
            ])
        #expect(progress.line(for: slow, elapsed: .seconds(1)) == "batch_2 in_progress: 1/10,000,000,000 done · 1s")
    }

    @Test func anUnknownStatusIsAnEnd() {
        #expect(BatchObject(json: ["id": "b", "status": "canceled"]).hasEnded)
        #expect(BatchObject(json: ["id": "b"]).hasEnded)
        for status in ["validating", "in_progress", "finalizing", "cancelling"] {
            #expect(!BatchObject(json: ["id": "b", "status": .string(status)]).hasEnded, "\(status)")
        }
    }
}
