import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

#if canImport(Glibc)
    import Glibc
#endif

/// Function tools' local handlers, run for real: output, failures and timeouts become results.
@Suite("Handler runner")
struct HandlerRunnerTests {
    func handler(_ command: JSONValue, timeout: Int = 5, directory: String = "/tmp") throws -> HandlerRunner.Handler {
        try #require(
            HandlerRunner.Handler(tool: [
                "type": "function", "name": "t",
                "handler": [
                    "command": command, "timeout_seconds": .integer(timeout), "working_directory": .string(directory),
                ],
            ]))
    }

    @Test func theArgumentsGoInOnStdinAndStdoutComesBack() async throws {
        let outcome = await HandlerRunner().run(
            try handler(["sh", "-c", "tr a-z A-Z"]), arguments: #"{"city":"paris"}"#)
        #expect(outcome == .output(#"{"CITY":"PARIS"}"#))
    }

    @Test func aStringCommandRunsInTheWorkingDirectory() async throws {
        let outcome = await HandlerRunner().run(try handler("pwd", directory: "/usr"), arguments: "{}")
        #expect(outcome == .output("/usr"))
    }

    @Test func aFailingHandlerIsAnErrorResultWithItsStderr() async throws {
        let outcome = await HandlerRunner().run(try handler("echo oops >&2; exit 3"), arguments: "{}")
        #expect(outcome == .failed("the handler failed (exit status 3): oops"))
        #expect(outcome.resultText == #"{"error":"the handler failed (exit status 3): oops"}"#)
    }

    /// A handler past its timeout is killed with its whole process group: the child it left running in
    /// the background goes too, not only the shell.
    @Test func aHandlerThatRunsTooLongIsKilledWithItsChildren() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("or-handler-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let outcome = await HandlerRunner().run(
            try handler(.string("sleep 30 & echo $! > '\(pidFile.path)'; sleep 30"), timeout: 1), arguments: "{}")
        #expect(outcome == .failed("the handler timed out after 1 s"))
        let sleeper = try #require(Self.writtenPID(pidFile))
        try await Deadline.poll("the handler's background child is gone") { !Self.isRunning(sleeper) }
    }

    /// The pid a handler wrote to `file`, once it has.
    static func writtenPID(_ file: URL) -> pid_t? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap {
            pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Ctrl-C during a turn cancels its task: the handler's whole process group is killed then, not at its
    /// timeout, and the turn ends there.
    @Test func cancellingTheTurnKillsTheHandlerAtOnce() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("or-handler-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let handler = try handler(.string("sleep 300 & echo $! > '\(pidFile.path)'; wait"), timeout: 120)
        let run = Task { await HandlerRunner().run(handler, arguments: "{}") }
        try await Deadline.poll("the handler's child wrote its pid") { Self.writtenPID(pidFile) != nil }
        let sleeper = try #require(Self.writtenPID(pidFile))
        #expect(Self.isRunning(sleeper), "the handler's child runs")
        run.cancel()
        let outcome = await run.value
        #expect(outcome == .failed("the handler was interrupted"), "ended by the cancellation, not the 120 s timeout")
        try await Deadline.poll("the handler's child is gone") { !Self.isRunning(sleeper) }
    }

    /// Whether `pid` is a live process (not gone, not a zombie waiting for whoever reaps orphans).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// A handler that closes its output and goes on is still held to its timeout (it was waited for
    /// without one).
    @Test func aHandlerThatClosesItsOutputIsStillTimedOut() async throws {
        let outcome = await HandlerRunner().run(
            try handler(.string("exec >/dev/null 2>&1; sleep 30"), timeout: 1), arguments: "{}")
        #expect(outcome == .failed("the handler timed out after 1 s"))
    }

    /// Arguments larger than a pipe holds, to a handler that never reads them: the writing does not hold up
    /// the waiting, so cancelling stops it then, not when it ends (ten minutes later).
    @Test func argumentsTheHandlerNeverReadsDoNotKeepItFromBeingStopped() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("or-handler-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let arguments = #"{"text":""# + String(repeating: "x", count: 300_000) + #""}"#
        let handler = try handler(.string("echo $$ > '\(pidFile.path)'; sleep 600"), timeout: 900)
        let run = Task { await HandlerRunner().run(handler, arguments: arguments) }
        try await Deadline.poll("the handler started") { Self.writtenPID(pidFile) != nil }
        let start = ContinuousClock.now
        run.cancel()
        #expect(await run.value == .failed("the handler was interrupted"))
        // Generous for a busy machine's pool; the handler itself would have taken 600 s.
        #expect(ContinuousClock.now - start < .seconds(300), "stopped when cancelled, not when the handler ended")
    }

    @Test func aCommandThatDoesNotExistIsAnErrorResult() async throws {
        let outcome = await HandlerRunner().run(try handler(["no-such-command-xyz"]), arguments: "{}")
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.hasPrefix("the handler failed (exit status 127)"))
    }
}
