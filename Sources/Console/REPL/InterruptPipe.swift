import CTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C without races: the SIGINT handler (in C) only writes a byte to a pipe; whoever waits polls
/// the pipe beside what it waits for (stdin at the prompt, a "finished" pipe during a request).
public final class InterruptPipe: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard or_pipe_cloexec(&fds) == 0 else {
            throw ConsoleError("cannot create a pipe for Ctrl-C handling (errno \(errno))")
        }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Routes SIGINT to this pipe until `uninstall`.
    public func install() {
        _ = or_install_sigint_pipe(writeFD)
    }

    public func uninstall() {
        or_restore_sigint()
    }

    /// Empties the pipe; returns true when at least one interrupt was pending.
    @discardableResult
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(readFD, &buffer, buffer.count) > 0 { any = true }
        return any
    }

    /// Simulates a Ctrl-C (used by tests and by code that wants the same path).
    func trigger() {
        var byte: UInt8 = 0x69
        _ = write(writeFD, &byte, 1)
    }
}
