import Foundation
import Synchronization
import Testing

@testable import Inspector

/// The thread that opens a store beside a command starts on another core than the one that started it (so
/// that it runs at once instead of waiting for that core: Docs/performance.md), and may then run on any.
@Suite("The store-opening thread")
struct StoreThreadTests {
    /// The calling thread's allowed cores, from /proc ("0-1"); nil when they cannot be read.
    static func allowedCores() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
        else { return nil }
        return line.split(separator: "\t").last.map(String.init)
    }

    /// Whether this thread may run on two cores or more (not so under `taskset -c 0`, say).
    static var twoCoresAllowed: Bool {
        guard let list = allowedCores() else { return false }
        return list.split(separator: ",").reduce(0) { count, range in
            let ends = range.split(separator: "-").compactMap { Int($0) }
            return count + (ends.count == 2 ? ends[1] - ends[0] + 1 : ends.count)
        } > 1
    }

    /// Each round is started, as a command starts its opening, by a thread that goes on working (it spins
    /// until the new thread has run, 100 ms at most): a new thread put on its core would wait for it. The
    /// rounds take a few milliseconds in all, so the spinning does not hold up the tests beside it for long.
    @Test(.enabled(if: twoCoresAllowed, "needs Linux and two cores this process may run on"))
    func itStartsOnAnotherCoreAndMayThenRunOnAny() async throws {
        // The other cores are kept busy too, so that the kernel has no idle core to prefer: left to itself it
        // would then put the new thread on its parent's core.
        let done = Atomic(false)
        for _ in 1..<ProcessInfo.processInfo.activeProcessorCount {
            Thread.detachNewThread { while !done.load(ordering: .relaxed) {} }
        }
        let rounds = await withCheckedContinuation { (continuation: CheckedContinuation<[Round], Never>) in
            Thread.detachNewThread { continuation.resume(returning: (0..<50).map { _ in Self.round() }) }
        }
        done.store(true, ordering: .relaxed)
        for round in rounds {
            let seen = try #require(round.seen, "the thread did not run within 100 ms")
            let caller = try #require(seen.elsewhereThan, "the thread was not kept from the caller's core")
            #expect(
                seen.startedOn != nil && seen.startedOn != caller,
                "started on \(seen.startedOn ?? -1), the caller's core \(caller)")
            #expect(
                seen.allowed == round.callers,
                "allowed afterwards: \(seen.allowed ?? "?"), the caller's: \(round.callers ?? "?")")
        }
    }

    struct Round: Sendable {
        var callers: String?
        var seen: (elsewhereThan: Int?, startedOn: Int?, allowed: String?)?
    }

    /// One thread started from this one, which spins until it has run.
    static func round() -> Round {
        let seen = Mutex<(elsewhereThan: Int?, startedOn: Int?, allowed: String?)?>(nil)
        StoreOpening.detach { placement in
            let allowed = allowedCores()
            seen.withLock { $0 = (placement.elsewhereThan, placement.startedOn, allowed) }
        }
        let deadline = ContinuousClock.now + .milliseconds(100)
        while seen.withLock({ $0 == nil }), ContinuousClock.now < deadline {}
        return Round(callers: allowedCores(), seen: seen.withLock { $0 })
    }
}
