import Foundation
import GRDB
@testable import Inspector
import ResponsesAPI
import Synchronization
import Testing

/// A stream faster than the disk waits for the recording's writer once 2 MB of its events are not stored
/// yet, instead of queueing them in memory without bound; a slow stream never waits.
@Suite("Recording backlog")
struct BacklogTests {
    @Test func waitReturnsOnlyOnceTheBacklogIsWithinItsLimit() async throws {
        let backlog = Backlog(limit: 100)
        backlog.add(80)
        await backlog.wait()  // within the limit: at once
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
        await waiter.value
        let late = returned.load(ordering: .sequentiallyConsistent)
        #expect(late)
    }

    @Test func aStoppedWriterReleasesEveryWaiter() async {
        let backlog = Backlog(limit: 10)
        backlog.add(50)
        let waiter = Task { await backlog.wait() }
        backlog.close()
        await waiter.value
        await backlog.wait()  // closed: never waits again
    }

    @Test func theStreamWaitsWhileTheWriterIsBlockedAndEveryEventIsStored() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        // Another connection holds the write lock, so the recording's writer cannot store anything yet.
        var configuration = GRDB.Configuration()
        configuration.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: store.store.path, configuration: configuration)
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        let recording = await store.recorder.exchangeWillStart(ExchangeRequest(
            startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses", headers: [], body: Array("{}".utf8),
            secrets: [testKey], context: ExchangeContext()))
        let data = Array(#"{"type":"response.output_text.delta","sequence_number":1,"delta":"x"}"#.utf8)
        let perRead = 8192
        var index = 0
        // 16 reads of about 565 KB each (9 MB): within the limit at first, over it at the end.
        for _ in 0..<16 {
            var read = RecordedEvents()
            for _ in 0..<perRead {
                read.append(index: index, offset: .milliseconds(index), type: "response.output_text.delta", sequenceNumber: index, data: data)
                index += 1
            }
            recording.didReceiveEvents(read)
        }
        #expect(16 * perRead * data.count > Recording.backlogLimit)
        let returned = Atomic(false)
        let waiter = Task {
            await recording.waitForWriter()
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(300))
        let early = returned.load(ordering: .sequentiallyConsistent)
        #expect(!early)

        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        await waiter.value
        await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        let row = try #require(try await store.store.recentExchanges().first)
        #expect(row.eventCount == index)
    }
}

private typealias Recording = ExchangeRecorder.Recording
