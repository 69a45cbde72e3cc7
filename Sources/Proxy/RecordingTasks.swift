import Synchronization

/// The recordings still catching up with streams their clients already have (a stream faster than its
/// recorder, `RecordingQueue`): the proxy answers the client's next request on the same connection at once,
/// and waits for these before it stops, so none is cut short.
final class RecordingTasks: Sendable {
    private struct State {
        var next = 0
        var running: [Int: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// How many recordings may catch up at once after their streams (each keeps up to 2 MB in memory and a
    /// spool file of up to 1 GB); past that a stream's connection waits for its recording.
    static let limit = 4

    /// Keeps `task` until it ends.
    func track(_ task: Task<Void, Never>) {
        let id = state.withLock { state -> Int in
            state.next += 1
            state.running[state.next] = task
            return state.next
        }
        Task {
            await task.value
            _ = state.withLock { $0.running.removeValue(forKey: id) }
        }
    }

    /// How many are still running.
    var count: Int { state.withLock { $0.running.count } }

    /// Returns when every recording tracked so far, and any tracked meanwhile, has ended.
    func waitForAll() async {
        while let task = state.withLock({ $0.running.values.first }) {
            await task.value
            // The task's own removal may not have run yet: drop every finished one now.
            state.withLock { state in
                for (id, running) in state.running where running == task { state.running.removeValue(forKey: id) }
            }
        }
    }
}
