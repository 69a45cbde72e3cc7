#if TeamInspector
    import Synchronization

    /// A continuation resumed once, by whichever of several tasks comes first (`TeamStore.deadline`): the
    /// answer, the timeout or the caller's cancellation. A result that arrives before the continuation is
    /// installed is kept and delivered when it is.
    final class Once<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var early: Result<T, any Error>?
            var done = false
            var cancel: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func install(_ continuation: CheckedContinuation<T, any Error>) {
            let early: Result<T, any Error>? = state.withLock {
                if let early = $0.early {
                    $0.early = nil
                    return early
                }
                $0.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        /// Whether a result was delivered.
        var isDone: Bool { state.withLock { $0.done } }

        /// How to cancel the work, for a result that comes from elsewhere (a timeout, the caller's cancellation).
        func onCancel(_ cancel: @escaping @Sendable () -> Void) {
            state.withLock { $0.cancel = cancel }
        }

        /// Cancels the work (when its result was not the one delivered).
        func cancelWork() {
            state.withLock { $0.cancel }?()
        }

        /// Delivers `result` unless another was delivered first; true when this one was.
        @discardableResult
        func resume(_ result: Result<T, any Error>) -> Bool {
            let (continuation, first) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Bool) in
                guard !state.done else { return (nil, false) }
                state.done = true
                guard let continuation = state.continuation else {
                    state.early = result
                    return (nil, true)
                }
                state.continuation = nil
                return (continuation, true)
            }
            continuation?.resume(with: result)
            return first
        }
    }
#endif
