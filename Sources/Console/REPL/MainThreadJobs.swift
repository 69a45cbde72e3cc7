import CTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work a task hands to the main thread while `MainThreadBridge.run` has it waiting: a question at the
/// prompt in the middle of a turn (may this function run?), which only the main thread, the one that owns
/// readline, may ask. A job is queued and a byte written to a pipe the bridge polls; the bridge runs the
/// job and the task's continuation resumes with its result.
final class MainThreadJobs: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [0, 0]
        guard or_pipe_cloexec(&fds) == 0 else { fatalError("cannot create a pipe (errno \(errno))") }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Runs `body` on the main thread (the next time the bridge polls) and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            queue.withLock { $0.append { continuation.resume(returning: body()) } }
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)
        }
    }

    /// On the main thread: runs every queued job.
    func runPending() {
        var bytes = [UInt8](repeating: 0, count: 64)
        _ = read(readFD, &bytes, bytes.count)
        let jobs = queue.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in jobs { job() }
    }
}
