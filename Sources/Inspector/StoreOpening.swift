import Dispatch
import Foundation
import StoreSupport
import Synchronization

/// The inspector store being opened on a background thread, so that a command's first request goes out
/// while SQLite opens the file, checks the migrations and marks interrupted exchanges. Async code awaits
/// the result; synchronous code (the REPL's commands) may block for it. A command may begin it before it
/// knows it will record (`ConsoleContext.prepare`), and hand it to its recorder later.
public final class StoreOpening: Sendable {
    private struct State {
        var result: Result<InspectorStore, any Error>?
        var waiters: [@Sendable (Result<InspectorStore, any Error>) -> Void] = []
    }

    private let state: Mutex<State>

    /// A store that is already open.
    init(opened store: InspectorStore) {
        state = Mutex(State(result: .success(store)))
    }

    /// Starts opening the store at `path` (migrated, its interrupted exchanges marked, the price table read
    /// for the first exchange's end) on a thread of its own.
    public convenience init(storeAt path: String, now: Date) {
        self.init {
            let store = try InspectorStore.open(at: path, now: now)
            do {
                _ = try store.markInterruptedExchanges()
            } catch {
                // The store was opened (and maybe repaired) but cannot be written: the repair is still told.
                throw Failure(repaired: store.repaired, error: error)
            }
            _ = PriceTable.shipped  // read now rather than when the first exchange ends
            return store
        }
    }

    /// An opening that failed after the store was opened, and perhaps repaired.
    public struct Failure: Error {
        public let repaired: DamagedStore?
        public let error: any Error
    }

    /// What an opening's `result` has to tell: the damaged store it moved aside (its note is due whether the
    /// opening then succeeded or not), and the error that ended it, if one did.
    public static func outcome(of result: Result<InspectorStore, any Error>) -> (
        repaired: DamagedStore?, error: (any Error)?
    ) {
        switch result {
        case .success(let store): return (store.repaired, nil)
        case .failure(let failure as Failure): return (failure.repaired, failure.error)
        case .failure(let error): return (nil, error)
        }
    }

    /// Starts `open` on a thread of its own, on another core than the caller's (`detach`): opening blocks
    /// on the disk, and on Linux Dispatch's global queues are the threads of the Swift concurrency pool (two,
    /// on two cores).
    init(_ open: @escaping @Sendable () throws -> InspectorStore) {
        state = Mutex(State())
        Self.detach { [self] in
            let result = Result { try open() }
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter(result) }
        }
    }

    /// The store, once open.
    func value() async -> Result<InspectorStore, any Error> {
        await withCheckedContinuation { continuation in
            when { continuation.resume(returning: $0) }
        }
    }

    /// The store, once open, blocking the calling thread until then (not for the cooperative pool).
    public func wait() -> Result<InspectorStore, any Error> {
        let ready = DispatchSemaphore(value: 0)
        let box = Mutex<Result<InspectorStore, any Error>?>(nil)
        when { result in
            box.withLock { $0 = result }
            ready.signal()
        }
        ready.wait()
        return box.withLock { $0! }
    }

    /// Calls `body` with the result: now when it is known, otherwise when it is.
    func when(_ body: @escaping @Sendable (Result<InspectorStore, any Error>) -> Void) {
        let known = state.withLock { state -> Result<InspectorStore, any Error>? in
            if let result = state.result { return result }
            state.waiters.append(body)
            return nil
        }
        if let known { body(known) }
    }
}
