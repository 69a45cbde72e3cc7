import ResponsesAPI

/// Synchronous work that blocks (waits on a semaphore, a lock, another thread, a process) run on a thread of
/// its own, so the waiting never holds a thread of the Swift concurrency pool. On a machine of two cores the
/// pool has two threads: two tests blocking them stop every other test in the process (their loopback
/// servers' handlers included) until one is done. Return values for the test to check; `#expect` belongs
/// in the test's own task.
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await OwnThread.run { Result { try body() } }.get()
    }

    /// The same for work that cannot fail.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await OwnThread.run(body)
    }
}
