import Foundation
import Synchronization

/// Waiting in tests for the condition a test needs, with a generous bound that fails loudly: a regression
/// that never reaches the condition becomes a thrown `DeadlineExceeded` naming what was awaited, never a
/// hung run and never a silent pass. The bounds measure nothing; they only stop a hang.
public enum Deadline {
    /// The bound used when a test gives none: long enough for a loaded two-core machine running every
    /// suite at once.
    public static let generous: Duration = .seconds(60)

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
                try? await Task.sleep(for: timeout)
                if settled.claim() {
                    work.cancel()
                    continuation.resume(throwing: DeadlineExceeded(what: what, timeout: timeout))
                }
            }
        }
    }

    /// Polls `condition` every `interval` until it holds; throws `DeadlineExceeded` when it still does not
    /// after `timeout`. The condition is checked once more after the deadline (a loaded machine can
    /// oversleep past it).
    public static func poll(
        within timeout: Duration = generous, every interval: Duration = .milliseconds(20), _ what: String,
        _ condition: @Sendable () async throws -> Bool
    ) async throws {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if try await condition() { return }
            try await Task.sleep(for: interval)
        }
        if try await condition() { return }
        throw DeadlineExceeded(what: what, timeout: timeout)
    }
}

/// Which of the operation and the timer came first: the first to claim it.
private final class Settled: Sendable {
    private let done = Mutex(false)
    func claim() -> Bool { done.withLock { done in defer { done = true }; return !done } }
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
