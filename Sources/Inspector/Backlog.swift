import Synchronization

/// The event bytes a recording has been handed and has not stored yet, and the streams waiting for them to
/// come down to the limit (see `ExchangeRecording.waitForWriter`).
final class Backlog: Sendable {
    private struct State {
        var bytes = 0
        /// The writer has stopped: nobody waits any more.
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    func add(_ count: Int) {
        state.withLock { $0.bytes += count }
    }

    /// `count` bytes were stored (or dropped): the waiters go on once the backlog is within the limit.
    func release(_ count: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.bytes -= count
            guard state.bytes <= limit else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in ready { waiter.resume() }
    }

    /// The writer has stopped (finished, or cannot write): nobody waits from now on.
    func close() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the backlog is within the limit: at once when it is, or when the writer has stopped.
    func wait() async {
        if state.withLock({ $0.closed || $0.bytes <= limit }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.closed || state.bytes <= limit { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
