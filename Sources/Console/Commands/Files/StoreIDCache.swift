import Foundation
import ResponsesAPI
import Synchronization

/// Vector store ids for Tab completion: fetched once (the first page of `GET /vector_stores`, at most
/// two seconds' wait) the first time they are wanted, then kept; ids the session creates or uses are
/// added as they appear.
final class StoreIDCache: Sendable {
    private let client: ResponsesClient
    private let state = Mutex<[String]?>(nil)

    init(client: ResponsesClient) {
        self.client = client
    }

    func add(_ ids: [String]) {
        state.withLock { known in known = Array(Set((known ?? []) + ids)).sorted() }
    }

    /// The known ids; the first call asks the server (from the main thread, so it waits on a semaphore
    /// while a task does the request).
    func ids() -> [String] {
        if let known = state.withLock({ $0 }) { return known }
        let done = DispatchSemaphore(value: 0)
        let client = self.client
        let fetched = Mutex<[String]>([])
        let task = Task {
            let page = try? await client.listVectorStores(page: PageRequest(limit: 100))
            fetched.withLock { $0 = (page?.data ?? []).compactMap { $0["id"]?.stringValue } }
            done.signal()
        }
        if done.wait(timeout: .now() + 2) == .timedOut { task.cancel() }
        let ids = fetched.withLock { $0 }
        add(ids)
        return state.withLock { $0 } ?? ids
    }
}
