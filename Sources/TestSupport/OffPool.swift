/// Work timed by a test, run with its continuations on `ServerExecutor`'s threads instead of the concurrency
/// pool: a full test run holds the pool for a minute at a time, and a wall-clock measure made on it counted
/// that wait as the measured work's.
public enum OffPool {
    public static func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(executorPreference: ServerExecutor.shared) { try await operation() }.value
    }
}
