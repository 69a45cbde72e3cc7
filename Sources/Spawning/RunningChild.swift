import ResponsesAPI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child that keeps running while the parent talks to it: an MCP server over its stdin and stdout. Started as
/// `ChildProcess` starts every program (close-on-exec pipes, a process group of its own, the environment given
/// whole), with `.open` input and `.captured` output.
///
/// Its stdout and stderr are read on threads of their own (blocking reads, never a pool thread) into
/// `output` and `errors`, which finish at end of file. Writes never block: the input is non-blocking, and a
/// child that stops reading makes `write` wait in short sleeps, which the caller's task can cancel. `stop()`
/// closes its input, gives it `grace` to exit, then kills its group, and reaps it; it is safe to call twice.
public final class RunningChild: Sendable {
    public let executable: String
    public let pid: Int32
    /// The child's stdout, in chunks as they were read; finishes at end of file.
    public let output: AsyncStream<[UInt8]>
    /// The child's stderr, likewise.
    public let errors: AsyncStream<[UInt8]>
    private let input: Int32
    private let ownGroup: Bool
    private let state = Mutex<State>(State())

    private struct State {
        var inputOpen = true
        var end: ChildProcess.End?
        /// `stop()` is reaping it: its pid may be another process's soon, and is not signalled any more.
        var reaping = false
    }

    /// Starts `process` (its `input` and `output` are replaced by `.open` and `.captured`).
    public init(_ process: ChildProcess) throws(ChildProcessError) {
        var process = process
        process.input = .open
        process.output = .captured
        let started = try process.start()
        executable = process.executable
        pid = started.pid
        input = started.input
        ownGroup = process.ownGroup
        output = Self.reading(started.output)
        errors = Self.reading(started.errors)
        // When it ends, whatever it started in its group ends too: those helpers hold its stdout open, and its
        // end would otherwise be seen only when they exit.
        let pid = started.pid
        if process.ownGroup {
            OwnThread.detach { [weak self] in
                ChildProcess.waitForExit(pid)
                self?.state.withLock { state in if !state.reaping { kill(-pid, SIGKILL) } }
            }
        }
    }

    deinit { stopNow(grace: .zero) }

    /// How the child ended, once `stop()` or `waitForEnd()` has reaped it.
    public var end: ChildProcess.End? { state.withLock { $0.end } }

    /// Writes all of `bytes` to the child's stdin. Throws `EPIPE` when the child has closed it (or ended),
    /// `ECANCELED` when the calling task is cancelled while the child does not read.
    public func write(_ bytes: [UInt8]) async throws(ChildProcessError) {
        var pending = bytes[...]
        while !pending.isEmpty {
            let (written, code): (Int, Int32) = state.withLock { state in
                guard state.inputOpen else { return (-1, EPIPE) }
                let written = pending.withUnsafeBytes { writeDescriptor(input, $0) }
                return (written, written < 0 ? errno : 0)
            }
            if written > 0 {
                pending = pending.dropFirst(written)
                continue
            }
            guard written < 0, code == EAGAIN || code == EINTR else {
                throw ChildProcessError(.write, executable: executable, code: written == 0 ? EPIPE : code)
            }
            do { try await Task.sleep(for: .milliseconds(5)) } catch {
                throw ChildProcessError(.write, executable: executable, code: ECANCELED)
            }
        }
    }

    /// Closes the child's stdin, waits up to `grace` for it to exit, kills its group if it has not, and reaps
    /// it; on a thread of its own, so a server slow to exit never holds one of the concurrency pool's threads
    /// (two on the machines this runs on). Returns how it ended.
    @discardableResult
    public func stop(grace: Duration = .seconds(1)) async -> ChildProcess.End {
        await OwnThread.run { self.stopNow(grace: grace) }
    }

    /// `stop`, on the calling thread.
    @discardableResult
    public func stopNow(grace: Duration) -> ChildProcess.End {
        let closing: Bool = state.withLock { state in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if closing { close(input) }
        let reaping: Bool = state.withLock { state in
            defer { state.reaping = true }
            return state.reaping
        }
        if reaping, let end = self.end { return end }
        let end = ChildProcess.reap(pid, group: ownGroup, after: grace)
        state.withLock { $0.end = $0.end ?? end }
        return self.end ?? end
    }

    /// A thread that reads `fd` to its end into a stream, then closes it.
    private static func reading(_ fd: Int32) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        let descriptor = fd
        OwnThread.detach {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    continuation.yield(Array(buffer[..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            continuation.finish()
        }
        return stream
    }
}

/// write(2), named apart from `RunningChild.write`.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(fd, bytes.baseAddress, bytes.count)
}
