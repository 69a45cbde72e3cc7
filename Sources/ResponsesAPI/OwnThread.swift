import Foundation

/// Blocking work (an external tool, a long computation) on a thread of its own, awaited without holding one
/// of the concurrency pool's threads: the pool has as many threads as cores (two on the machines this runs
/// on), and a tool that holds one for seconds starves every other task, a terminal's redraw or a test's
/// polling among them.
public enum OwnThread {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Starts `work` on a thread of its own and returns at once: a loop that blocks for as long as something
    /// runs (the reading of a running child's output).
    public static func detach(_ work: @escaping @Sendable () -> Void) {
        Thread { work() }.start()
    }
}
