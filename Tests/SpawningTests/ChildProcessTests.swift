import Foundation
import Spawning
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child's end: run to completion, stopped by a cancellation with its whole group, stopped at its deadline,
/// and its input, output and errors moved at once. Real programs (sh, sleep, head, cat), no stand-ins.
@Suite struct ChildProcessTests {
    let path = ["PATH": "/usr/bin:/bin"]

    @Test func aChildRunsToItsEndWithItsStatusOutputAndErrors() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], environment: path)
            .runBlocking()
        #expect(outcome.end == .exited(3))
        #expect(outcome.end.status == 3)
        #expect(outcome.output == Array("out\n".utf8))
        #expect(outcome.errors == Array("err\n".utf8))
    }

    @Test func aChildEndedByASignalReportsIt() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "kill -TERM $$"], environment: path).runBlocking()
        #expect(outcome.end == .signalled(SIGTERM))
        #expect(outcome.end.status == 128 + SIGTERM)
    }

    @Test func aProgramThatCannotStartIsAnErrorNamingIt() throws {
        let error = #expect(throws: ChildProcessError.self) {
            try ChildProcess("/nonexistent/program", environment: [:]).runBlocking()
        }
        #expect(error?.step == .start)
        #expect(error?.code == ENOENT)
        #expect(error?.description.contains("/nonexistent/program") == true)
    }

    /// The awaiting task cancelled: the child and the helper it started are both killed (the helper is in the
    /// child's group), at once rather than at the end of the helper's minute.
    @Test func cancellingKillsTheChildWithItsGroup() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let child = ChildProcess(
            "/bin/sh", ["-c", "sleep 60 & echo $! > \(pidFile); wait"], environment: path, timeout: .seconds(120))
        let run = Task { try await child.run() }
        let helper = try await Self.pid(in: pidFile)
        run.cancel()
        let outcome = try await run.value
        #expect(outcome.end == .cancelled)
        #expect(outcome.end.status == nil)
        // The helper sleeps for a minute and the child's timeout is two: ended now, it was killed.
        #expect(await Self.ended(helper), "the helper (pid \(helper)) outlived the cancellation")
    }

    /// Past its deadline the child is killed: while it writes nothing, and after it has closed its output but
    /// goes on running (its end then waited for with the same deadline).
    @Test(arguments: ["sleep 60", "exec >/dev/null 2>&1; sleep 60"])
    func aChildPastItsDeadlineIsKilled(script: String) throws {
        let began = ContinuousClock.now
        let outcome = try ChildProcess("/bin/sh", ["-c", script], environment: path, timeout: .milliseconds(300))
            .runBlocking()
        #expect(outcome.end == .timedOut)
        #expect(ContinuousClock.now - began < .seconds(10))
    }

    /// Past its output limit the child is killed at once (it would have written for a minute), and what was read
    /// is cut short there; under the limit it runs to its end as ever.
    @Test func aChildPastItsOutputLimitIsKilled() throws {
        let began = ContinuousClock.now
        let endless = try ChildProcess(
            "/bin/sh", ["-c", "cat /dev/zero"], environment: path, timeout: .seconds(60), outputLimit: 100_000
        ).runBlocking()
        // Its fields one by one: the outcome whole, shown by a failing expectation, would be its output's bytes.
        let (overflowed, end, read) = (endless.overflowed, endless.end, endless.output.count)
        #expect(overflowed)
        #expect(end == .signalled(SIGKILL))
        #expect(read > 100_000 && read < 1_000_000)
        #expect(ContinuousClock.now - began < .seconds(30))
        let small = try ChildProcess("/bin/sh", ["-c", "printf 12345"], environment: path, outputLimit: 5).runBlocking()
        #expect(!small.overflowed)
        #expect(small.end == .exited(0))
        #expect(small.output == Array("12345".utf8))
    }

    /// More than a pipe holds, on stderr first while its stdin is still unread, then stdin copied to stdout:
    /// read and fed one after the other, either side would wait on the other for ever.
    @Test func largeInputOutputAndErrorsAtOnceDoNotDeadlock() throws {
        let input = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let outcome = try ChildProcess(
            "/bin/sh", ["-c", "head -c 2000000 /dev/zero >&2; cat"], environment: path, input: .bytes(input),
            timeout: .seconds(30)
        ).runBlocking()
        #expect(outcome.end == .exited(0))
        #expect(outcome.output.count == input.count)
        #expect(outcome.output == input)
        #expect(outcome.errors.count == 2_000_000)
    }

    /// Input a child never reads does not keep it from ending nor its output from being read.
    @Test func inputTheChildNeverReadsIsDropped() throws {
        let input = [UInt8](repeating: 0x61, count: 1_000_000)
        let outcome = try ChildProcess(
            "/bin/sh", ["-c", "echo done"], environment: path, input: .bytes(input),
            timeout: .seconds(30)
        ).runBlocking()
        #expect(outcome.end == .exited(0))
        #expect(outcome.output == Array("done\n".utf8))
    }

    /// Output discarded (a program that leaves a daemon behind, as `tmux new-session` does): the daemon holds no
    /// pipe, so the child's end is not waited for past its own.
    @Test func aDiscardedOutputIsNotHeldOpenByWhatTheChildLeavesBehind() throws {
        let began = ContinuousClock.now
        let outcome = try ChildProcess(
            "/bin/sh", ["-c", "sleep 3 & echo started"], environment: path, output: .discarded
        )
        .runBlocking()
        #expect(outcome.end == .exited(0))
        #expect(outcome.output.isEmpty && outcome.errors.isEmpty)
        #expect(ContinuousClock.now - began < .seconds(2))
    }

    /// The pid a shell wrote to `file`, waited for up to 10 s.
    static func pid(in file: String) async throws -> pid_t {
        for _ in 0..<1000 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }

    /// Whether `pid` is gone (or a zombie waiting for its new parent) within 5 s.
    static func ended(_ pid: pid_t) async -> Bool {
        for _ in 0..<500 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z") {
                return true
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
