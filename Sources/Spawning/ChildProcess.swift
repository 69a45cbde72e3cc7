import ResponsesAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way a program is started: a function tool's handler (Workbench), poppler and tesseract (Library), the
/// editor of `/edit` (Console) and the tests' programs (TestSupport) all run through it.
///
/// Without Foundation's `Process`: its pipes were inheritable, so a program started at the same moment by another
/// thread (another tool, a test's tmux server) could keep a pipe's write end open and the read never ended; and
/// its `waitUntilExit` needs a run loop that a busy thread pool may never serve. Here the pipes are made
/// close-on-exec as they are created, and made and handed to the child under one lock (`ChildProcess+Start`);
/// the child gets them through posix_spawn's file actions (`or_spawn`, which also clears the signal mask a pool
/// thread may have left and resets every disposition); its stdin is fed and its stdout and stderr drained
/// together with poll(2), so neither side can block the other; and it is waited for, EINTR retried, in one place
/// (`ChildProcess+Waiting`).
///
/// A child in a process group of its own (`ownGroup`, the default) does not hear the terminal's Ctrl-C: that goes
/// to the foreground group, and a tool in it died at the same moment the console heard the interrupt (so a file
/// was stored as failed, "pdftotext exited with 130", before the cancellation was seen). The console alone hears
/// it and cancels; the child's whole group is then killed, its own helpers with it. Past `timeout` the same.
/// (A console killed outright leaves such a child to finish on its own, as a `kill -9` always did.) An editor
/// that takes over the terminal stays in the console's group (`ownGroup: false`), with the terminal as its
/// stdin, stdout and stderr.
public struct ChildProcess: Sendable {
    /// What the child reads.
    public enum Input: Sendable, Hashable {
        /// /dev/null: a child in a background group that read the terminal would be stopped.
        case nothing
        /// These bytes, then end of file. Fed as the child reads them: a child that never reads them does not
        /// keep the parent from reading its output, nor from stopping it.
        case bytes([UInt8])
        /// The parent's own stdin (an editor).
        case inherited
        /// A pipe the parent writes to for as long as the child runs (`RunningChild`: an MCP server). Run to
        /// its end, the child reads end of file at once.
        case open
    }

    /// Where the child's stdout and stderr go.
    public enum Output: Sendable, Hashable {
        /// Read whole, each into its own buffer.
        case captured
        /// /dev/null: for a program that leaves a daemon behind (`tmux new-session`), which would otherwise hold
        /// the pipe open, and whose read would never end.
        case discarded
        /// The parent's own (an editor).
        case inherited
    }

    /// How the child ended.
    public enum End: Sendable, Hashable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed (with its group when it had one of its own) at its deadline.
        case timedOut
        /// Killed (with its group when it had one of its own) when its cancellation was set.
        case cancelled

        /// The exit code when it exited, 128 + the signal when a signal ended it (as a shell reports it); nil
        /// when it was stopped at its deadline or by a cancellation.
        public var status: Int32? {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            case .timedOut, .cancelled: nil
            }
        }
    }

    /// A child run to its end.
    public struct Outcome: Sendable, Hashable {
        public var end: End
        /// Its stdout and stderr, as far as they were read (empty unless `captured`).
        public var output: [UInt8]
        public var errors: [UInt8]
        /// Its stdout or its stderr grew past `outputLimit`: it was killed there (with its group when it had
        /// one of its own), and what was read is cut short.
        public var overflowed = false
    }

    public var executable: String
    public var arguments: [String]
    /// The child's whole environment (nothing of the parent's is added).
    public var environment: [String: String]
    public var input: Input
    public var output: Output
    public var ownGroup: Bool
    public var timeout: Duration?
    /// Looked at at least every tenth of a second while the child runs; when set, the child is killed.
    public var cancellation: ToolCancellation?
    /// The most bytes read from its stdout, and from its stderr, when captured; past it, the child is killed
    /// and its outcome says it `overflowed`. nil: read whole.
    public var outputLimit: Int?

    /// `executable` (a path; `PATH` is not searched) with `arguments` after its name.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String], input: Input = .nothing,
        output: Output = .captured, ownGroup: Bool = true, timeout: Duration? = nil,
        cancellation: ToolCancellation? = nil, outputLimit: Int? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.input = input
        self.output = output
        self.ownGroup = ownGroup
        self.timeout = timeout
        self.cancellation = cancellation
        self.outputLimit = outputLimit
    }

    /// Runs the child to its end on the calling thread (which it blocks: call it from a thread of its own, or
    /// use `run()`). Throws only when the child cannot be started or its output cannot be watched (it is then
    /// killed and waited for first); a timeout or a cancellation is an `End`.
    public func runBlocking() throws(ChildProcessError) -> Outcome {
        if cancellation?.isCancelled == true { return Outcome(end: .cancelled, output: [], errors: []) }
        let started = try start()
        return try finish(started)
    }

    /// `runBlocking` on a thread of its own (`OwnThread`), never holding one of the concurrency pool's; the
    /// awaiting task's cancellation is the one watched (it replaces `cancellation`).
    public func run() async throws(ChildProcessError) -> Outcome {
        let result = await OwnThread.run(cancellable: { cancellation in
            var child = self
            child.cancellation = cancellation
            return Result { () throws(ChildProcessError) in try child.runBlocking() }
        })
        return try result.get()
    }
}

/// A child that could not be started, or whose output could not be watched.
public struct ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Step: String, Sendable, Hashable {
        case pipe = "cannot make a pipe"
        case nullDevice = "cannot open /dev/null"
        case start = "cannot start"
        case read = "cannot read its output"
        case write = "cannot write to its input"
    }

    public var step: Step
    public var executable: String
    /// The errno value.
    public var code: Int32

    public init(_ step: Step, executable: String, code: Int32) {
        self.step = step
        self.executable = executable
        self.code = code
    }

    /// The system's words for `code`.
    public var reason: String { String(cString: strerror(code)) }

    /// What failed and why, without the program's name: the reason alone when it could not be started.
    public var detail: String { step == .start ? reason : "\(step.rawValue): \(reason)" }

    public var description: String { "\(executable): \(step.rawValue): \(reason)" }
}
