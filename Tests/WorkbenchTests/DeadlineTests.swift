import Foundation
import Synchronization
import TestSupport
import Testing

/// The bounds every waiting test uses: a condition that never holds and an operation that never ends fail
/// with `DeadlineExceeded`, and time the waiting task was kept from running (here a condition that takes
/// seconds, as a starved pool would make it) does not use up the bound.
@Suite("Deadlines in tests")
struct DeadlineTests {
    @Test func aConditionThatNeverHoldsFails() async {
        await #expect(throws: DeadlineExceeded.self) {
            try await Deadline.poll(within: .milliseconds(200), "never") { false }
        }
    }

    @Test func anOperationThatNeverEndsFails() async throws {
        await #expect(throws: DeadlineExceeded.self) {
            _ = try await Deadline.run(within: .milliseconds(200), "never") {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        #expect(try await Deadline.run(within: .seconds(5), "at once") { 42 } == 42)
    }

    @Test func timeThePollerWasHeldIsNotCounted() async throws {
        let calls = LookCounter()
        // The first look takes three seconds (as a poller kept from running by other suites' work would: a
        // sleep here, not a blocked thread, so as not to hold the pool); the third holds. With a two-second
        // bound counted in wall time the wait failed.
        try await Deadline.poll(within: .seconds(2), "the third look") {
            let call = calls.next()
            if call == 1 { try await Task.sleep(for: .seconds(3)) }
            return call >= 3
        }
        #expect(calls.value == 3)
    }
}

private final class LookCounter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}
