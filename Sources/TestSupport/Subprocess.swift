import CTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion with a given environment and stdin, capturing its output.
public enum Subprocess {
    private static let spawnLock = NSLock()
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs the program on a thread of its own, so the waiting never takes a thread from the Swift
    /// concurrency pool or Dispatch's (on Linux the same threads), which a loopback server in the same test
    /// process needs to answer the program.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: String? = nil
    ) async throws -> Result {
        try await Blocking.run { try runBlocking(executable, arguments, environment: environment, stdin: stdin) }
    }

    /// Runs the program and blocks the calling thread until it exits (for quick tools such as tmux).
    /// With `captureOutput` false, its output goes to /dev/null: needed for a program that leaves a daemon
    /// behind (`tmux new-session`), which would otherwise hold the output pipe open.
    ///
    /// Spawned with `posix_spawn` over pipes made close-on-exec, so a child started by another test at the
    /// same moment never inherits this child's pipes (Foundation's `Process` let them leak, and its
    /// `waitUntilExit` needs a run loop that a busy thread pool may never serve).
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: String? = nil,
        captureOutput: Bool = true
    ) throws -> Result {
        // Pipes are made close-on-exec, and children spawned, under one lock: no child can be forked while
        // a pipe of another one is still inheritable.
        let (pid, inputEnd, outputEnd, errorEnd) = try spawnLock.withLock { () throws -> (pid_t, Int32, Int32, Int32) in
            var pipes: [[Int32]] = []
            for _ in 0..<3 {
                var fds: [Int32] = [-1, -1]
                guard pipe(&fds) == 0 else {
                    pipes.joined().forEach { close($0) }
                    throw SubprocessError("pipe failed (errno \(errno))")
                }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                pipes.append(fds)
            }
            let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
            defer { close(devNull) }
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: pid_t = 0
            let spawned = or_spawn(
                &pid, executable, argv, envp, stdin == nil ? devNull : pipes[0][0], captureOutput ? pipes[1][1] : devNull,
                captureOutput ? pipes[2][1] : devNull, 0)
            close(pipes[0][0])
            close(pipes[1][1])
            close(pipes[2][1])
            guard spawned == 0 else {
                [pipes[0][1], pipes[1][0], pipes[2][0]].forEach { close($0) }
                throw SubprocessError("cannot start \(executable) (errno \(spawned))")
            }
            return (pid, pipes[0][1], pipes[1][0], pipes[2][0])
        }
        // Feed stdin and drain both outputs together, so neither side can block the other.
        var input = Array((stdin ?? "").utf8)[...]
        var inputFD: Int32 = inputEnd
        if input.isEmpty { close(inputFD); inputFD = -1 }
        var output: [Int32: [UInt8]] = [outputEnd: [], errorEnd: []]
        var openOutputs = [outputEnd, errorEnd]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !openOutputs.isEmpty || inputFD >= 0 {
            var fds = openOutputs.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    let written = input.withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
                    if written > 0 { input = input.dropFirst(written) }
                    if written < 0 && errno != EINTR && errno != EAGAIN || input.isEmpty {
                        close(inputFD)
                        inputFD = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    output[entry.fd]!.append(contentsOf: buffer[..<count])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    openOutputs.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exit code when it exited, 128 + the signal when a signal ended it.
        let exitCode: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitCode, stdout: String(decoding: output[outputEnd]!, as: UTF8.self),
            stderr: String(decoding: output[errorEnd]!, as: UTF8.self))
    }

    /// Runs the built `openresponses` with `home` as its `OPENRESPONSES_HOME` and `HOME`, a minimal `PATH`,
    /// and `extra` on top: a command as a user with a fresh home runs it.
    public static func openresponses(_ arguments: [String], home: URL, environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ["OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"]
        for (key, value) in extra { environment[key] = value }
        return try await run(openresponsesBinary, arguments, environment: environment)
    }

    /// The built `openresponses` executable next to the running test bundle (or in `.build/debug`).
    public static var openresponsesBinary: String {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug"))
        for directory in candidates {
            let path = directory.appendingPathComponent("openresponses").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        fatalError("the openresponses executable is not built (looked in \(candidates.map(\.path)))")
    }
}

public struct SubprocessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
