import Foundation
import GRDB
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

@testable import Inspector

/// A stream faster than the disk waits for the recording's writer once 2 MB of its events are not stored
/// yet, instead of queueing them in memory without bound; a slow stream never waits.
@Suite("Recording backlog")
struct BacklogTests {
    @Test func waitReturnsOnlyOnceTheBacklogIsWithinItsLimit() async throws {
        let backlog = Backlog(limit: 100)
        backlog.add(80)
        try await Deadline.run("a wait within the limit") { await backlog.wait() }  // at once
        backlog.add(70)
        let returned = Atomic(false)
        let waiter = Task {
            await backlog.wait()
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(200))
        let early = returned.load(ordering: .sequentiallyConsistent)
        #expect(!early)
        backlog.release(40)  // 110: still above
        try await Task.sleep(for: .milliseconds(100))
        let stillEarly = returned.load(ordering: .sequentiallyConsistent)
        #expect(!stillEarly)
        backlog.release(10)  // 100: within
        try await Deadline.run("the waiter, once the backlog is within its limit") { await waiter.value }
        let late = returned.load(ordering: .sequentiallyConsistent)
        #expect(late)
    }

    @Test func aStoppedWriterReleasesEveryWaiter() async throws {
        let backlog = Backlog(limit: 10)
        backlog.add(50)
        let released = Counter()
        var waiters: [Task<Void, Never>] = []
        for _ in 0..<3 {
            waiters.append(
                Task {
                    await backlog.wait()
                    released.increment()
                })
        }
        try await Task.sleep(for: .milliseconds(100))
        let early = released.value
        #expect(early == 0, "over the limit and not closed: nobody goes on")
        backlog.close()
        for waiter in waiters {
            try await Deadline.run("a waiter released by close()") { await waiter.value }
        }
        let afterClose = released.value
        #expect(afterClose == 3)
        // Closed: a new wait returns at once, although the backlog is still over its limit.
        try await Deadline.run("a wait on a closed backlog") { await backlog.wait() }
        backlog.add(1000)
        try await Deadline.run("a wait on a closed backlog after more was added") { await backlog.wait() }
    }

    @Test func theStreamWaitsWhileTheWriterIsBlockedAndEveryEventIsStored() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        // 16 reads of about 565 KB each (9 MB): within the limit at first, over it at the end. Built before
        // the store is blocked: building them can take seconds on a loaded machine, and the writer must not
        // sit out SQLite's busy timeout meanwhile.
        let data = Array(#"{"type":"response.output_text.delta","sequence_number":1,"delta":"x"}"#.utf8)
        let perRead = 8192
        var reads: [RecordedEvents] = []
        var index = 0
        for _ in 0..<16 {
            var read = RecordedEvents()
            for _ in 0..<perRead {
                read.append(
                    index: index, offset: .milliseconds(index), type: "response.output_text.delta",
                    sequenceNumber: index, data: data)
                index += 1
            }
            reads.append(read)
        }
        #expect(16 * perRead * data.count > Recording.backlogLimit)

        // Another connection holds the write lock, so the recording's writer cannot store anything yet.
        var configuration = GRDB.Configuration()
        configuration.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: store.store.path, configuration: configuration)
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let blockedAt = ContinuousClock.now

        let recording = await store.recorder.exchangeWillStart(
            ExchangeRequest(
                startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses", headers: [],
                body: Array("{}".utf8),
                secrets: [testKey], context: ExchangeContext()))
        for read in reads { recording.didReceiveEvents(read) }
        let returned = Atomic(false)
        let waiter = Task {
            await recording.waitForWriter()
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(300))
        let early = returned.load(ordering: .sequentiallyConsistent)
        #expect(!early)

        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        let held = ContinuousClock.now - blockedAt
        try await Deadline.run("the stream waiting for the writer") { await waiter.value }
        try await Deadline.run("the recording's end") {
            await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        }
        let row = try #require(try await store.store.recentExchanges().first)
        #expect(row.eventCount == index, "the store was blocked for \(held) (the writer gives up after 10 s)")
    }
}

private typealias Recording = ExchangeRecorder.Recording

private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
