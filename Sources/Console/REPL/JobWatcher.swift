import Foundation
import ResponsesAPI
import Synchronization

/// The background responses the console detached from, watched off the main thread: each is asked for
/// at most once every `interval` (5 s) until it ends, and its end becomes a one-line notice that the
/// console prints at its next prompt. The polling task runs only while something is watched.
final class JobWatcher: Sendable {
    private struct State {
        /// Each job with the client of the server it runs on.
        var watched: [String: ResponsesClient] = [:]
        var notices: [String] = []
        var polling = false
    }

    private let state = Mutex(State())
    private let interval: Duration

    init(interval: Duration = .seconds(5)) {
        self.interval = interval
    }

    /// Watches job `id` on the server `client` talks to (the console may switch providers meanwhile).
    func watch(_ id: String, client: ResponsesClient) {
        let start = state.withLock { state -> Bool in
            state.watched[id] = client
            guard !state.polling else { return false }
            state.polling = true
            return true
        }
        if start { Task.detached { await self.poll() } }
    }

    func unwatch(_ id: String) {
        state.withLock { _ = $0.watched.removeValue(forKey: id) }
    }

    /// The notices of the jobs that ended since the last call.
    func takeNotices() -> [String] {
        state.withLock { state in
            defer { state.notices.removeAll() }
            return state.notices
        }
    }

    private func poll() async {
        while true {
            try? await Task.sleep(for: interval)
            let jobs = state.withLock { state -> [(id: String, client: ResponsesClient)] in
                if state.watched.isEmpty { state.polling = false }
                return state.watched.map { ($0.key, $0.value) }.sorted { $0.id < $1.id }
            }
            guard !jobs.isEmpty else { return }
            for (id, client) in jobs {
                guard let response = try? await client.retrieve(id: id), let status = response.status,
                    ![ResponseStatus.queued, .inProgress].contains(status)
                else { continue }
                let words = JobsRunner.firstWords(of: .string(response.outputText))
                state.withLock { state in
                    if state.watched.removeValue(forKey: id) != nil {
                        state.notices.append(
                            "[job \(id) \(status.rawValue)" + (words.isEmpty ? "" : ": \(words)")
                                + " · /attach-job \(id) shows it]")
                    }
                }
            }
        }
    }
}
