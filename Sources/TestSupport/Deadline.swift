import Foundation
import Synchronization

/// Waiting in tests for the condition a test needs, with a generous bound that fails loudly: a regression
/// that never reaches the condition becomes a thrown `DeadlineExceeded` naming what was awaited, never a
/// hung run and never a silent pass. The bounds measure nothing; they only stop a hang.
public enum Deadline {
    /// The bound used when a test gives none: long enough for a loaded two-core machine running every
    /// suite at once.
    public static let generous: Duration = .seconds(60)

    /// The most one wake-up of a waiting task counts against its bound. Time the task was kept from running
    /// is not counted: when a loaded machine's other suites hold the concurrency pool's two threads for a
    /// minute, the waiting task and the work it waits for resume together, and a bound counted in wall time
    /// then failed the test before the work had had a turn (a CI run beside a build did so). A real hang
    /// still fails: the waiting task wakes on time and counts every interval.
    static let slack: Duration = .seconds(1)

    /// Runs `operation` and returns its value, or throws `DeadlineExceeded` when it has not finished within
    /// `timeout`. An operation that never returns is left behind (it cannot be cancelled from outside: an
    /// `await` on a continuation or a task's value ignores cancellation), so the test fails instead of hanging.
    public static func run<T: Sendable>(
        within timeout: Duration = generous, _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let settled = Settled()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Task {
                let result = await Result<T, any Error>(catching: { try await operation() })
                if settled.claim() { continuation.resume(with: result) }
            }
            Task {
                var budget = Budget(timeout, wakeUp: slack)
                while !budget.isSpent, !settled.isClaimed {
                    try? await Task.sleep(for: min(.milliseconds(100), budget.left))
                    budget.count()
                }
                if settled.claim() {
                    work.cancel()
                    continuation.resume(throwing: DeadlineExceeded(what: what, timeout: timeout))
                }
            }
        }
    }

    /// Polls `condition` every `interval` until it holds; throws `DeadlineExceeded` when it still does not
    /// after `timeout` of polling (each wake-up counting at most `slack`). The condition is checked once more
    /// at the end.
    public static func poll(
        within timeout: Duration = generous, every interval: Duration = .milliseconds(20), _ what: String,
        _ condition: @Sendable () async throws -> Bool
    ) async throws {
        var budget = Budget(timeout, wakeUp: max(slack, interval))
        while !budget.isSpent {
            if try await condition() { return }
            try await Task.sleep(for: interval)
            budget.count()
        }
        if try await condition() { return }
        throw DeadlineExceeded(what: what, timeout: timeout)
    }
}

/// A bound counted in the waiting task's wake-ups, each at most `wakeUp` (see `Deadline.slack`).
private struct Budget {
    let timeout: Duration
    let wakeUp: Duration
    private var spent = Duration.zero
    private var last = ContinuousClock.now

    init(_ timeout: Duration, wakeUp: Duration) {
        self.timeout = timeout
        self.wakeUp = wakeUp
    }

    var isSpent: Bool { spent >= timeout }
    var left: Duration { timeout - spent }

    /// Counts the time since the last wake-up, at most `wakeUp` of it.
    mutating func count() {
        let now = ContinuousClock.now
        spent += min(now - last, wakeUp)
        last = now
    }
}

/// Which of the operation and the timer came first: the first to claim it.
private final class Settled: Sendable {
    private let done = Mutex(false)
    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
    var isClaimed: Bool { done.withLock { $0 } }
}

public struct DeadlineExceeded: Error, CustomStringConvertible {
    public var what: String
    public var timeout: Duration
    public var description: String { "\(what): not done after \(timeout)" }

    public init(what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
