import Foundation
import GRDB
import Inspector
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// An exchange's row is written with the first of what the exchange brings, so that a short exchange is one
/// transaction written after its answer and nothing of the store competes with the request on its way; a
/// request still waiting for its answer has its row by the recorder's `rowDelay`, for `inspect watch`.
@Suite("When an exchange's row is written")
struct ExchangeRowTimingTests {
    @Test func aShortExchangeIsOneTransactionWrittenAfterItsAnswer() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        // A row delay no exchange here reaches: the row can only go with the rest.
        let recorder = ExchangeRecorder(store: store.store, rowDelay: .seconds(3600))
        let commits = CommitCounter()
        try await store.store.writer.write { db in db.add(transactionObserver: commits, extent: .observerLifetime) }
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse") }
        let configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: recorder)
        for try await _ in client.stream(CreateResponseRequest(model: "gpt-4.1-mini", input: "Say hello")) {}
        try await waitUntilWritten(recorder)
        await transport.shutdown()
        await server.stop()

        // The row, the head, the events and the outcome together (the ledger's entry is its own).
        #expect(commits.count == 1)
        let row = try #require(try await store.store.recentExchanges().first)
        #expect(row.state == "completed")
        #expect(row.eventCount == 12)
    }

    @Test func aRequestWaitingForItsAnswerHasItsRowByTheDelay() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let gate = Gate()
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse").held(until: gate) }
        let configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(120))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: store.recorder)
        let streaming = Task {
            for try await _ in client.stream(CreateResponseRequest(model: "gpt-4.1-mini", input: "Say hello")) {}
        }
        // The answer is held until the row is there (or the bound passes, and the test fails).
        let start = ContinuousClock.now
        var seen: ExchangeSummary?
        while seen == nil, ContinuousClock.now - start < Deadline.generous {
            seen = try await store.store.recentExchanges().first
            if seen == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        gate.open()
        try await streaming.value
        try await waitUntilWritten(store.recorder)
        await transport.shutdown()
        await server.stop()

        #expect(seen?.state == "in_progress")
        #expect(seen?.method == "POST")
        let row = try #require(try await store.store.recentExchanges().first)
        #expect(row.state == "completed")
    }
}

/// Counts the store's transactions that wrote to the `exchange` table.
final class CommitCounter: TransactionObserver, Sendable {
    private let state = Mutex((commits: 0, touched: false))
    var count: Int { state.withLock { $0.commits } }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "exchange" }
    func databaseDidChange(with event: DatabaseEvent) { state.withLock { $0.touched = true } }
    func databaseDidCommit(_ db: Database) {
        state.withLock { state in
            if state.touched { state.commits += 1 }
            state.touched = false
        }
    }
    func databaseDidRollback(_ db: Database) { state.withLock { $0.touched = false } }
}
