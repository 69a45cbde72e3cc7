import Foundation
import Spawning

/// Runs a program to completion with a given environment and stdin, capturing its output: a `ChildProcess` in
/// the test process's own group.
public enum Subprocess {
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
        try await run(executable, arguments, environment: environment, stdinBytes: stdin.map { Array($0.utf8) })
    }

    /// The same with any bytes on stdin (binary input, invalid UTF-8).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], stdinBytes: [UInt8]?
    ) async throws -> Result {
        try await Blocking.run {
            try runBlocking(executable, arguments, environment: environment, stdinBytes: stdinBytes)
        }
    }

    /// Runs the program and blocks the calling thread until it exits (for quick tools such as tmux).
    /// With `captureOutput` false, its output goes to /dev/null: needed for a program that leaves a daemon
    /// behind (`tmux new-session`), which would otherwise hold the output pipe open.
    ///
    /// Its pipes are made close-on-exec, and children spawned, under `ChildProcess`'s one lock, so a child
    /// started by another test at the same moment never inherits this child's pipes (Foundation's `Process`
    /// let them leak, and its `waitUntilExit` needs a run loop that a busy thread pool may never serve).
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: String? = nil,
        stdinBytes: [UInt8]? = nil, captureOutput: Bool = true
    ) throws -> Result {
        let input = stdinBytes ?? stdin.map { Array($0.utf8) }
        let child = ChildProcess(
            executable, arguments, environment: environment, input: input.map { .bytes($0) } ?? .nothing,
            output: captureOutput ? .captured : .discarded, ownGroup: false)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try child.runBlocking()
        } catch {
            throw SubprocessError(error.description)
        }
        // Exit code when it exited, 128 + the signal when a signal ended it (nothing stops it otherwise).
        return Result(
            status: outcome.end.status ?? -1, stdout: String(decoding: outcome.output, as: UTF8.self),
            stderr: String(decoding: outcome.errors, as: UTF8.self))
    }

    /// Runs the built `openresponses` with `home` as its `OPENRESPONSES_HOME` and `HOME`, a minimal `PATH`,
    /// and `extra` on top: a command as a user with a fresh home runs it.
    public static func openresponses(_ arguments: [String], home: URL, environment extra: [String: String] = [:])
        async throws -> Result
    {
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
        candidates.append(
            Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
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
