import Foundation
import ResponsesAPI
import Spawning
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What other threads do meanwhile: signals that interrupt the waiting thread's system calls, and a child
/// started by another thread while a child's pipes are open.
@Suite struct ChildProcessRaceTests {
    let path = ["PATH": "/usr/bin:/bin"]

    /// The waiting thread's poll(2) and waitpid(2) interrupted over and over (a handler installed without
    /// SA_RESTART, signals sent to that thread alone): each is retried, and the child's real status and
    /// output come back. The child writes, closes its output and only then ends, so both waits are hit.
    @Test func signalsToTheWaitingThreadDoNotEndTheWait() async throws {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in }
        #else
            action.__sigaction_u.__sa_handler = { _ in }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        #expect(sigaction(SIGUSR2, &action, nil) == 0)

        let child = ChildProcess(
            "/bin/sh", ["-c", "sleep 0.4; echo done; exec >/dev/null 2>&1; sleep 0.4; exit 3"], environment: path)
        // Both threads are threads of their own: the concurrency pool, busy with other tests, would send few.
        let (signals, result) = await OwnThread.run { () -> (Int, Result<ChildProcess.Outcome, ChildProcessError>?) in
            let shared = Shared()
            Thread {
                // A thread inherits its creator's mask, and the pool's threads block most signals.
                var usr2 = sigset_t()
                sigemptyset(&usr2)
                sigaddset(&usr2, SIGUSR2)
                pthread_sigmask(SIG_UNBLOCK, &usr2, nil)
                shared.state.withLock { $0.thread = pthread_self() }
                let result = Result { () throws(ChildProcessError) in try child.runBlocking() }
                shared.state.withLock { $0.result = result }
            }.start()
            var signals = 0
            while true {
                // Sent under the lock the thread takes to finish: it has not ended while the signal is sent.
                let finished = shared.state.withLock { state -> Bool in
                    guard state.result == nil else { return true }
                    if let thread = state.thread, pthread_kill(thread, SIGUSR2) == 0 { signals += 1 }
                    return false
                }
                if finished { return (signals, shared.state.withLock { $0.result }) }
                usleep(2_000)
            }
        }
        let outcome = try #require(result).get()
        #expect(signals > 20, "too few signals to have interrupted both waits")
        #expect(outcome.end == .exited(3))
        #expect(outcome.output == Array("done\n".utf8))
    }

    /// A child started while another one's pipes are open does not inherit them. The first child reads its
    /// input only after a while, so the parent's end of that pipe stays open (more than a pipe holds is still
    /// to be fed) when the second child starts: had the second one inherited it, the first would see the end of
    /// its input only when the second ended, which is only when it is cancelled, after the first has ended: the
    /// first would reach its deadline instead. Causal, so a loaded machine cannot make it fail (no time bound).
    @Test func aChildStartedMeanwhileDoesNotHoldAnotherOnesPipes() async throws {
        let input = [UInt8](repeating: 0x61, count: 200_000)
        let first = ChildProcess(
            "/bin/sh", ["-c", "sleep 0.5; cat"], environment: path, input: .bytes(input), timeout: .seconds(30))
        let lingering = ChildProcess("/bin/sleep", ["600"], environment: path, output: .discarded)
        let reading = Task { try await first.run() }
        try await Task.sleep(for: .milliseconds(150))
        let other = Task { try await lingering.run() }
        let outcome = try await reading.value
        other.cancel()
        #expect(try await other.value.end == .cancelled)
        #expect(outcome.end == .exited(0), "the first child's input stayed open: \(outcome.end)")
        #expect(outcome.output == input)
    }

    /// The waiting thread's id and what it got, shared with the test's task.
    final class Shared: Sendable {
        struct State: Sendable {
            var thread: pthread_t?
            var result: Result<ChildProcess.Outcome, ChildProcessError>?
        }
        let state = Mutex(State())
    }
}
