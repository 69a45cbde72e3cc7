import Synchronization

/// Set when the task that started an external tool is cancelled (Ctrl-C during `library add`, or while a
/// function tool's handler runs). The thread waiting for the tool looks at it at least every tenth of a
/// second and kills the tool, and no further tool is started: an interrupted PDF ends at once instead of
/// after its last page, and its half-read pages are never stored as a failure that did not happen.
public final class ToolCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    public func cancel() { flag.store(true, ordering: .releasing) }
}

extension OwnThread {
    /// `run`, with a flag the work can watch that is set when the awaiting task is cancelled.
    public static func run<T: Sendable>(cancellable work: @escaping @Sendable (ToolCancellation) -> T) async -> T {
        let cancellation = ToolCancellation()
        return await withTaskCancellationHandler {
            await run { work(cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
