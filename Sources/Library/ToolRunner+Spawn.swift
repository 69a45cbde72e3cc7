import CTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResponsesAPI

/// Running a tool without Foundation's `Process`: its pipes were inheritable, so a process started at the
/// same moment by another thread (another tool, a test's tmux server) could keep a pipe's write end open
/// and the read never ended; and its `waitUntilExit` needs a run loop. Here the pipes are made
/// close-on-exec as they are created, the child gets them as its stdout and stderr through posix_spawn's
/// file actions (or_spawn), both are drained with poll(2) until they close or the deadline passes, and a
/// tool past its deadline, or whose task was cancelled, is killed. The tool runs in a process group of its
/// own: Ctrl-C on the terminal goes to the foreground group, and a tool in it died at the same moment the
/// console heard the interrupt, so the file being read was sometimes stored as failed ("pdftotext exited
/// with 130") before the cancellation was seen. Now the console alone hears Ctrl-C and stops the tool's
/// group. (A console killed outright, or by a hangup it does not handle, leaves the tool to finish its one
/// page or image on its own, as a `kill -9` always did.)
extension ToolRunner {
    enum Spawned {
        case finished(status: Int32, output: [UInt8], errors: [UInt8])
        case timedOut
        case cancelled
        case failure(String)
    }

    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String], timeout: Duration, cancellation: ToolCancellation? = nil
    ) -> Spawned {
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard makePipe(&outputPipe), makePipe(&errorPipe) else {
            let message = String(cString: strerror(errno))
            (outputPipe + errorPipe).filter { $0 >= 0 }.forEach { close($0) }
            return .failure("cannot make a pipe: \(message)")
        }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        // Without it the tool would read the console's standard input from a background group (and stop).
        guard devNull >= 0 else {
            let message = String(cString: strerror(errno))
            (outputPipe + errorPipe).forEach { close($0) }
            return .failure("cannot open /dev/null: \(message)")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let spawned = or_spawn(&pid, executable, argv, envp, devNull, outputPipe[1], errorPipe[1], 1)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        close(devNull)
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            return .failure(String(cString: strerror(spawned)))
        }
        let deadline = ContinuousClock.now + timeout
        var collected: [Int32: [UInt8]] = [outputPipe[0]: [], errorPipe[0]: []]
        var open = [outputPipe[0], errorPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var timedOut = false, cancelled = false
        var failedPoll: String?
        // How long one poll may wait: a tenth of a second when a cancellation is to be watched.
        let longestWait: Int32 = cancellation == nil ? 60_000 : 100
        while !open.isEmpty {
            if cancellation?.isCancelled == true {
                cancelled = true
                break
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let leftMilliseconds: Int64 = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            let milliseconds = Int32(min(leftMilliseconds, Int64(longestWait)))
            if poll(&fds, nfds_t(fds.count), milliseconds) < 0 {
                if errno == EINTR { continue }
                // The pipes cannot be watched: the tool is stopped as at its deadline, never waited for blind.
                failedPoll = String(cString: strerror(errno))
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd]!.append(contentsOf: buffer[..<count])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        open.forEach { close($0) }
        // The whole group: a tool's own helpers go with it (the leader, not yet reaped, keeps the group's id).
        if timedOut || cancelled || failedPoll != nil { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if timedOut { return .timedOut }
        if cancelled { return .cancelled }
        if let failedPoll { return .failure("cannot read its output: \(failedPoll)") }
        // The exit code when it exited, 128 + the signal when a signal ended it.
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return .finished(status: code, output: collected[outputPipe[0]]!, errors: collected[errorPipe[0]]!)
    }

    /// A pipe whose two ends are close-on-exec from the start.
    static func makePipe(_ fds: inout [Int32]) -> Bool {
        fds.withUnsafeMutableBufferPointer { or_pipe_cloexec($0.baseAddress) } == 0
    }
}
