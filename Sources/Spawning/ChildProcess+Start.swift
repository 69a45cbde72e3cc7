import CTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starting the child: its pipes, /dev/null where nothing is to be read or kept, and `or_spawn`.
extension ChildProcess {
    /// A started child: its id and the parent's ends of its pipes (-1 where it has none).
    struct Started {
        var pid: pid_t
        var input: Int32
        var output: Int32
        var errors: Int32
    }

    /// Pipes are made, and children spawned, under one lock: no child is started while a pipe of another one is
    /// still being made (where `pipe2` is missing, as on macOS, a pipe is inheritable until `fcntl` marks it).
    private static let spawnLock = Mutex(())

    func start() throws(ChildProcessError) -> Started {
        switch input {
        case .bytes, .open:
            // A child that exits without reading its input makes the next write fail: with EPIPE, not by
            // killing this process. (The child's own dispositions are reset by or_spawn.)
            _ = signal(SIGPIPE, SIG_IGN)
        case .nothing, .inherited:
            break
        }
        return try Self.spawnLock.withLock { _ throws(ChildProcessError) -> Started in try startLocked() }
    }

    private func startLocked() throws(ChildProcessError) -> Started {
        // Every descriptor made here; the child's ends and /dev/null are closed once it has them, the parent's
        // ends too when it cannot be started.
        var made: [Int32] = []
        func fail(_ step: ChildProcessError.Step, _ code: Int32) -> ChildProcessError {
            made.forEach { close($0) }
            return ChildProcessError(step, executable: executable, code: code)
        }
        func makePipe() throws(ChildProcessError) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard fds.withUnsafeMutableBufferPointer({ or_pipe_cloexec($0.baseAddress) }) == 0 else {
                throw fail(.pipe, errno)
            }
            made += fds
            return (fds[0], fds[1])
        }
        var nullDevice: Int32 = -1
        func openNullDevice() throws(ChildProcessError) -> Int32 {
            if nullDevice < 0 {
                nullDevice = open("/dev/null", O_RDWR | O_CLOEXEC)
                guard nullDevice >= 0 else { throw fail(.nullDevice, errno) }
                made.append(nullDevice)
            }
            return nullDevice
        }

        // The child's descriptors (-1: the parent's own) and the parent's ends.
        var childInput: Int32 = -1
        var childOutput: Int32 = -1
        var childErrors: Int32 = -1
        var parentInput: Int32 = -1
        var parentOutput: Int32 = -1
        var parentErrors: Int32 = -1
        switch input {
        case .nothing:
            childInput = try openNullDevice()
        case .bytes, .open:
            (childInput, parentInput) = try makePipe()
        case .inherited:
            break
        }
        switch output {
        case .captured:
            (parentOutput, childOutput) = try makePipe()
            (parentErrors, childErrors) = try makePipe()
        case .discarded:
            childOutput = try openNullDevice()
            childErrors = childOutput
        case .inherited:
            break
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = or_spawn(&pid, executable, argv, envp, childInput, childOutput, childErrors, ownGroup ? 1 : 0)
        let parentEnds = [parentInput, parentOutput, parentErrors].filter { $0 >= 0 }
        guard spawned == 0 else { throw fail(.start, spawned) }
        made.filter { !parentEnds.contains($0) }.forEach { close($0) }
        // The parent's end of the input never blocks: the feeding shares one poll(2) with the reading.
        if parentInput >= 0 { _ = fcntl(parentInput, F_SETFL, fcntl(parentInput, F_GETFL) | O_NONBLOCK) }
        return Started(pid: pid, input: parentInput, output: parentOutput, errors: parentErrors)
    }
}
