import Foundation
import GRDB
import ResponsesAPI
import TestSupport
import Testing

@testable import Inspector

/// Closing the store leaves its WAL in place (no checkpoint, no fsync, no deletion at every command's
/// exit); `ExchangeRecorder.finish` folds a WAL that has grown past `InspectorStore.walLimit` into the
/// database. Either way the next process reads everything, and the files keep mode 0600.
@Suite("The store's write-ahead log")
struct WriteAheadLogTests {
    @Test func closingLeavesASmallWALThatTheNextOpenReads() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("inspector.sqlite").path
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse") }
        try await Self.recordAndClose(path: path, server: server, requests: 2)
        await server.stop()

        // SQLite's default close would have checkpointed the WAL into the database and deleted it.
        let walSize = try #require(Self.size(path + "-wal"))
        #expect(walSize > 0)
        #expect(walSize <= InspectorStore.walLimit)
        for suffix in ["", "-wal", "-shm"] { #expect(Self.mode(path + suffix) == 0o600, "\(suffix)") }

        let reopened = try InspectorStore.open(at: path)
        let rows = try await reopened.recentExchanges()
        #expect(rows.map(\.state) == ["completed", "completed"])
        #expect(rows.allSatisfy { $0.eventCount == 12 })
    }

    @Test func aWALThatGrewPastTheLimitIsFoldedInWhenTheRecorderFinishes() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("inspector.sqlite").path
        let frames = Fixtures.largeTextStream(megabytes: 3)
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
        }
        try await Self.recordAndClose(path: path, server: server, requests: 1)
        await server.stop()

        #expect(Self.size(path + "-wal") == 0)
        let reopened = try InspectorStore.open(at: path)
        let row = try #require(try await reopened.recentExchanges().first)
        #expect(row.state == "completed")
        #expect(row.eventCount == frames.count)
    }

    @Test func tidyingNeverWaitsForAnotherProcessesReader() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let path = store.store.path
        let body = String(repeating: "x", count: 2 << 20)
        try await store.store.writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO exchange (started_at, method, url, request_headers, request_body) VALUES ('2026-11-23', 'POST', 'u', '[]', ?)",
                arguments: [body])
        }
        #expect((Self.size(path + "-wal") ?? 0) > InspectorStore.walLimit)
        // Another connection in the middle of a read: a truncating checkpoint would wait for it (10 s).
        var configuration = GRDB.Configuration()
        configuration.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        try await reader.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM exchange")
        }
        // A checkpoint that waited for the reader would sit out the whole busy timeout (10 s) and then give
        // up: tidying must come back well before that, and leave the WAL for a later command.
        // Timed off the concurrency pool (`OffPool`): a full test run's busy pool once added 3.5 s to it.
        let inspector = store.store
        let took = try await Deadline.run("tidyWAL beside another connection's reader") {
            try await OffPool.run {
                let started = ContinuousClock.now
                await inspector.tidyWAL()
                return ContinuousClock.now - started
            }
        }
        #expect(took < .seconds(InspectorStore.busyTimeout), "tidyWAL took \(took): it waited for the reader")
        #expect((Self.size(path + "-wal") ?? 0) > InspectorStore.walLimit)

        try await reader.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        await store.store.tidyWAL()
        #expect(Self.size(path + "-wal") == 0)
    }

    /// Records `requests` streamed exchanges through a recorder that opens the store itself, as a command
    /// does, calls `finish`, and lets every connection close.
    private static func recordAndClose(path: String, server: LoopbackServer, requests: Int) async throws {
        let recorder = ExchangeRecorder(openingStoreAt: path) { error in Issue.record("cannot open: \(error)") }
        let configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: recorder)
        for _ in 0..<requests {
            for try await _ in client.stream(CreateResponseRequest(model: "m", input: "hi")) {}
        }
        await recorder.finish()
        await transport.shutdown()
    }

    private static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("or-wal-\(UUID().uuidString)")
    }

    private static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }
}
