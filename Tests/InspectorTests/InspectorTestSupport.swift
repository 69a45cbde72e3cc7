import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// A fresh store in its own temporary directory, for one test.
struct TemporaryStore {
    let directory: URL
    let store: InspectorStore
    let recorder: ExchangeRecorder

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("openresponses-tests-\(UUID().uuidString)", isDirectory: true)
        store = try InspectorStore.open(at: directory.appendingPathComponent("inspector.sqlite").path)
        recorder = ExchangeRecorder(store: store)
    }

    /// Every byte of the database files (main, WAL, shared memory).
    func allBytes() throws -> Data {
        var data = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let part = FileManager.default.contents(atPath: store.path + suffix) { data.append(part) }
        }
        return data
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

let testKey = "sk-test-SECRET-9f8e7d6c5b4a"

/// Runs `body` with a client whose exchanges are recorded in `store`, then waits until every exchange it
/// began is written (a cancelled stream's too). Throws when they are not written within a generous bound,
/// rather than reading a store that is still being written.
func recording<T>(
    _ store: TemporaryStore, server: LoopbackServer, _ body: (ResponsesClient) async throws -> T
) async throws -> T {
    let configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    let client = ResponsesClient(configuration: configuration, transport: transport, observer: store.recorder)
    let result: Result<T, any Error>
    do { result = .success(try await body(client)) } catch { result = .failure(error) }
    try await waitUntilWritten(store.recorder)
    await transport.shutdown()
    return try result.get()
}

/// Waits until the recorder has written every exchange begun so far, with a generous bound, and fails
/// loudly when the bound cut the wait short.
func waitUntilWritten(_ recorder: ExchangeRecorder, within bound: Duration = Deadline.generous) async throws {
    guard await recorder.waitUntilIdle(timeout: bound) else {
        throw DeadlineExceeded(what: "the recorder writing every exchange", timeout: bound)
    }
}

/// The `data:` payloads of an SSE fixture, exactly as written.
func fixtureDataLines(_ name: String) -> [String] {
    Fixtures.text(name).split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
}

/// Streams `frames` from a loopback server through a recording client that sends `headers` with every request
/// (a named provider's), and returns the exchange as stored.
func recordedStream(_ frames: [String], headers: [(String, String)], in store: TemporaryStore) async throws
    -> ExchangeDetail
{
    let server = try await LoopbackServer.start { _ in
        Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
    }
    var configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
    configuration.extraHeaders = headers
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    let client = ResponsesClient(configuration: configuration, transport: transport, observer: store.recorder)
    for try await _ in client.stream(CreateResponseRequest(model: "bench-model", input: "api")) {}
    try await waitUntilWritten(store.recorder)
    await transport.shutdown()
    await server.stop()
    let row = try #require(try await store.store.recentExchanges().first)
    return try #require(try await store.store.exchange(id: row.id))
}
