import Foundation
import Inspector
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// The store is opened in the background: requests go out meanwhile and are recorded once it is open; a
/// store that cannot be opened is reported once and nothing else breaks.
@Suite("Inspector store opened in the background")
struct StoreOpeningTests {
    @Test func exchangesMadeWhileTheStoreOpensAreRecorded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-opening-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (recorder, failures) = Self.recorder(openingStoreIn: directory)
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse") }
        try await Self.client(server: server, recorder: recorder) { client in
            for _ in 0..<3 {
                for try await _ in client.stream(CreateResponseRequest(model: "m", input: "hi")) {}
            }
        }
        await server.stop()
        #expect(failures.all.isEmpty)
        let store = try #require(recorder.store)
        let rows = try await store.recentExchanges()
        #expect(rows.map(\.state) == ["completed", "completed", "completed"])
        #expect(rows.allSatisfy { $0.eventCount == 12 })
    }

    @Test func waitingUntilIdleSaysWhetherItTimedOut() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let recording = await store.recorder.exchangeWillStart(
            ExchangeRequest(
                startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses", headers: [],
                body: Array("{}".utf8),
                secrets: [testKey], context: ExchangeContext()))
        // An exchange still open: the wait ends with the timeout, and says so, instead of hanging.
        let idleWhileOpen = try await Deadline.run("a wait with a 200 ms timeout") {
            await store.recorder.waitUntilIdle(timeout: .milliseconds(200))
        }
        #expect(!idleWhileOpen)
        let waiter = Task { await store.recorder.waitUntilIdle(timeout: .seconds(600)) }
        await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        let idleOnceClosed = try await Deadline.run("a wait ended by the exchange closing") { await waiter.value }
        #expect(idleOnceClosed)
        #expect(await store.recorder.waitUntilIdle(timeout: .milliseconds(1)))
    }

    @Test func aStoreThatCannotBeOpenedIsReportedOnceAndRequestsStillGoOut() async throws {
        // A regular file where the store's directory should be.
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("or-blocker-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let (recorder, failures) = Self.recorder(openingStoreIn: blocker)
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse") }
        var texts: [String] = []
        _ = try await Self.client(server: server, recorder: recorder) { client in
            for _ in 0..<2 {
                var text = ""
                for try await event in client.stream(CreateResponseRequest(model: "m", input: "hi")) {
                    if case .outputTextDelta(let delta) = event.kind { text += delta.delta }
                }
                texts.append(text)
            }
        }
        await server.stop()
        #expect(texts.count == 2 && texts.allSatisfy { !$0.isEmpty })
        #expect(server.requests.count == 2)
        #expect(failures.all.count == 1)
        #expect(recorder.store == nil)
    }

    /// What a recorder reported as failures, in order.
    final class Failures: Sendable {
        private let reported = Mutex<[String]>([])
        var all: [String] { reported.withLock { $0 } }
        func append(_ error: any Error) { reported.withLock { $0.append("\(error)") } }
    }

    /// A recorder opening `inspector.sqlite` in `directory` in the background, and the failures it reports.
    private static func recorder(openingStoreIn directory: URL) -> (ExchangeRecorder, Failures) {
        let failures = Failures()
        let path = directory.appendingPathComponent("inspector.sqlite").path
        return (ExchangeRecorder(openingStoreAt: path) { failures.append($0) }, failures)
    }

    private static func client<T>(
        server: LoopbackServer, recorder: ExchangeRecorder, _ body: (ResponsesClient) async throws -> T
    ) async throws -> T {
        let configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: recorder)
        let result: Result<T, any Error>
        do { result = .success(try await body(client)) } catch { result = .failure(error) }
        try await waitUntilWritten(recorder)
        await transport.shutdown()
        return try result.get()
    }
}
