#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTerminal
import Foundation
import ResponsesAPI

/// Runs a function tool's local handler: the command (a string for `sh -c`, or a list of words) in its
/// working directory, with the call's arguments JSON on stdin. Its stdout is the result. A non-zero exit,
/// a timeout (the whole process group is killed) or a command that cannot start becomes an error result
/// for the model, never a crash.
public struct HandlerRunner: Sendable {
    public struct Handler: Sendable, Hashable {
        public var command: [String]
        public var usesShell: Bool
        public var workingDirectory: String
        public var timeoutSeconds: Int
        public var trusted: Bool

        /// The handler of a function tool in a preset template (nil when it has none).
        public init?(tool: JSONValue) {
            guard let handler = tool["handler"] else { return nil }
            switch handler["command"] {
            case .string(let line)?:
                command = [line]
                usesShell = true
            case .array(let words)?:
                command = words.compactMap(\.stringValue)
                usesShell = false
            default:
                return nil
            }
            guard !command.isEmpty else { return nil }
            workingDirectory = handler["working_directory"]?.stringValue ?? FileManager.default.currentDirectoryPath
            timeoutSeconds = handler["timeout_seconds"]?.intValue ?? 30
            trusted = handler["trusted"]?.boolValue ?? false
        }
    }

    public enum Outcome: Sendable, Hashable {
        case output(String)
        case failed(String)

        /// The `output` of the `function_call_output` item.
        public var resultText: String {
            switch self {
            case .output(let text): text
            case .failed(let message): JSONValue.object(["error": .string(message)]).compactString
            }
        }
    }

    public init() {}

    /// Runs `handler` with `arguments` on stdin, on a thread of its own (`OwnThread`): until it ends, times
    /// out, or the awaiting task is cancelled (Ctrl-C), which kills its whole process group at once.
    public func run(_ handler: Handler, arguments: String) async -> Outcome {
        await OwnThread.run(cancellable: { cancellation in Self.runBlocking(handler, arguments: arguments, cancellation: cancellation) })
    }

    /// The handler run to its end on the calling thread, looking at `cancellation` at least every tenth of a
    /// second.
    static func runBlocking(_ handler: Handler, arguments: String, cancellation: ToolCancellation) -> Outcome {
        guard !cancellation.isCancelled else { return .failed(Self.interrupted) }
        let script = handler.usesShell
            ? ["/bin/sh", "-c", "cd \"$1\" && eval \"$2\"", "sh", handler.workingDirectory, handler.command[0]]
            : ["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", handler.workingDirectory] + handler.command
        // Made close-on-exec at once (`or_pipe_cloexec`): a program another thread starts meanwhile must not
        // inherit them. None leaks when the second or third cannot be made.
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard input.withUnsafeMutableBufferPointer({ or_pipe_cloexec($0.baseAddress) }) == 0,
            output.withUnsafeMutableBufferPointer({ or_pipe_cloexec($0.baseAddress) }) == 0,
            errors.withUnsafeMutableBufferPointer({ or_pipe_cloexec($0.baseAddress) }) == 0
        else {
            (input + output + errors).filter { $0 >= 0 }.forEach { close($0) }
            return .failed("cannot create pipes")
        }
        let argv = script.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = or_spawn(&pid, "/bin/sh", argv, envp, input[0], output[1], errors[1], 1)
        close(input[0]); close(output[1]); close(errors[1])
        guard spawned == 0 else {
            close(input[1]); close(output[0]); close(errors[0])
            return .failed("cannot start \(handler.command.joined(separator: " ")): \(String(cString: strerror(spawned)))")
        }
        // The arguments go in from a thread of their own: a handler that never reads them (with more than a
        // pipe's 64 KB of them) blocks that thread, not the waiting below, until it ends or is killed (the
        // write then fails with EPIPE).
        _ = signal(SIGPIPE, SIG_IGN)
        let stdin = input[1]
        Thread.detachNewThread {
            arguments.utf8CString.withUnsafeBufferPointer { buffer in
                var done = 0
                let total = max(0, buffer.count - 1)
                while done < total {
                    let count = write(stdin, buffer.baseAddress! + done, total - done)
                    if count > 0 { done += count } else if count < 0, errno == EINTR { continue } else { break }
                }
            }
            close(stdin)
        }

        let deadline = ContinuousClock.now + .seconds(handler.timeoutSeconds)
        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var open = [output[0], errors[0]]
        var timedOut = false
        var interrupted = false
        var failedPoll = false
        while !open.isEmpty {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero {
                timedOut = true
                break
            }
            if cancellation.isCancelled {
                interrupted = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 100))
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 && errno != EINTR {
                failedPoll = true
                break
            }
            for entry in fds where entry.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == output[0] { stdout += buffer[..<count] } else { stderr += buffer[..<count] }
                } else {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        if timedOut || interrupted || failedPoll { kill(-pid, SIGKILL) }
        open.forEach { close($0) }
        // Its output closed, the handler may still run (`exec >/dev/null`): waited for with the same deadline
        // and cancellation as its output.
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            if reaped == 0 {
                if ContinuousClock.now >= deadline { timedOut = true } else if cancellation.isCancelled { interrupted = true }
                if timedOut || interrupted {
                    kill(-pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    break
                }
                usleep(20_000)
            }
        }
        if timedOut { return .failed("the handler timed out after \(handler.timeoutSeconds) s") }
        if failedPoll { return .failed("the handler's output could not be read (poll failed)") }
        if interrupted { return .failed(Self.interrupted) }
        let text = String(decoding: stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let reason = exited ? "exit status \(code)" : "killed by signal \(status & 0x7f)"
            let detail = String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failed("the handler failed (\(reason))" + (detail.isEmpty ? "" : ": \(detail.prefix(500))"))
        }
        return .output(text)
    }

    /// The result of a handler stopped because the user interrupted the turn.
    static let interrupted = "the handler was interrupted"
}
