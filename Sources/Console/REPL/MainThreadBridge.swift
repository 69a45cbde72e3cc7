import CTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs async work from the main thread and blocks it in `poll` until the work is done, so a Ctrl-C
/// (a byte on the interrupt pipe) can cancel the work at once. The main thread stays the only one that
/// touches readline and the terminal; the work runs on the concurrency pool.
public struct MainThreadBridge: Sendable {
    let interrupt: InterruptPipe
    let jobs = MainThreadJobs()

    public init(interrupt: InterruptPipe) {
        self.interrupt = interrupt
    }

    /// From the work `run` runs: `body` on the main thread, which is waiting in `run` (a question at the
    /// prompt mid-turn). Outside `run`, it waits for the next `run`.
    func onMainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await jobs.perform(body)
    }

    /// Runs `operation`; Ctrl-C cancels its task (`onInterrupt` runs once, on this thread) and the call
    /// still waits for the task to finish, so whatever it records is recorded.
    public func run<T: Sendable>(
        onInterrupt: () -> Void = {}, _ operation: @escaping @Sendable () async -> T
    ) -> (value: T, interrupted: Bool) {
        var fds: [Int32] = [0, 0]
        guard or_pipe_cloexec(&fds) == 0 else { fatalError("cannot create a pipe (errno \(errno))") }
        defer {
            close(fds[0])
            close(fds[1])
        }
        let result = Mutex<T?>(nil)
        let doneFD = fds[1]
        let task = Task.detached {
            let value = await operation()
            result.withLock { $0 = value }
            var byte: UInt8 = 1
            _ = write(doneFD, &byte, 1)
        }
        var interrupted = false
        var polled = [
            pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: interrupt.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: jobs.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            for index in polled.indices { polled[index].revents = 0 }
            if poll(&polled, 3, -1) < 0 {
                // Nothing is left unwatched: the loop ends only once the operation has given its value.
                if errno != EINTR { usleep(10_000) }
                continue
            }
            if polled[0].revents & Int16(POLLIN) != 0 {
                var byte: UInt8 = 0
                _ = read(fds[0], &byte, 1)
                if result.withLock({ $0 != nil }) { break }
            }
            if polled[2].revents & Int16(POLLIN) != 0 {
                jobs.runPending()
                continue
            }
            if polled[1].revents & Int16(POLLIN) != 0 {
                interrupt.drain()
                if !interrupted {
                    interrupted = true
                    task.cancel()
                    onInterrupt()
                }
            }
        }
        return (result.withLock { $0 }!, interrupted)
    }
}
