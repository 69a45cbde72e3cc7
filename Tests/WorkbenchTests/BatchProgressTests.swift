import Foundation
import ResponsesAPI
import Testing
import Workbench

/// `batch wait`'s progress line: counts, elapsed time, and what is left estimated from the server's
/// `in_progress_at` (so a wait started again estimates at once), else from what this wait saw.
@Suite("Batch progress")
struct BatchProgressTests {
    func batch(_ status: String, done: Int, failed: Int = 0, total: Int = 1000, since: Double? = nil) -> BatchObject {
        var object: JSONObject = [
            "id": "batch_1", "status": .string(status),
            "request_counts": [
                "total": .integer(total), "completed": .integer(done - failed), "failed": .integer(failed),
            ],
        ]
        if let since { object["in_progress_at"] = .number(since) }
        return BatchObject(json: .object(object))
    }

    @Test func theRateSinceTheBatchBeganRunning() {
        let now = Date(timeIntervalSince1970: 10_000)
        let progress = BatchProgress(now: { now })
        // 250 done in the 100 s since in_progress_at: 750 more take 300 s.
        let line = progress.line(for: batch("in_progress", done: 250, failed: 3, since: 9_900), elapsed: .seconds(5))
        #expect(line == "batch_1 in_progress: 250/1,000 done (3 failed) · 5s · about 5m 00s left")
    }

    @Test func withoutTheServersTimeTheRateThisWaitSaw() {
        var progress = BatchProgress(now: { Date(timeIntervalSince1970: 0) })
        progress.observe(batch("in_progress", done: 100), at: .seconds(10))
        let later = batch("in_progress", done: 200)
        progress.observe(later, at: .seconds(20))
        // 100 in 10 s; 800 left: 80 s.
        #expect(
            progress.line(for: later, elapsed: .seconds(20))
                == "batch_1 in_progress: 200/1,000 done · 20s · about 1m 20s left")
        #expect(
            progress.line(for: batch("validating", done: 0), elapsed: .seconds(3725))
                == "batch_1 validating: 0/1,000 done · 1h 02m")
        #expect(
            progress.line(for: batch("completed", done: 1000), elapsed: .seconds(42))
                == "batch_1 completed: 1,000/1,000 done · 42s")
    }
}
