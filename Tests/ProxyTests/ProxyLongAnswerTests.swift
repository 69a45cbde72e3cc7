import Foundation
import GRDB
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// A long answer as the API sends it (the last four events each repeat the whole text) through the proxy:
/// the client gets every byte unchanged, the recording stores the repeats once and reads back exactly, and a
/// key in the answer keeps the final events whole and redacted, as for the console's own streams.
@Suite("recording proxy: long answers as the API sends them")
struct ProxyLongAnswerTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-long-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// Streams `frames` through a proxy with curl (sending `key`); returns what curl got, the recorded
    /// exchange, the bytes its batches hold and how many batches have cuts.
    private func proxied(
        _ frames: [String], key: String, headers: [String] = [], backlog: Int = 2 << 20
    ) async throws -> (received: Data, detail: ExchangeDetail, stored: Int, cut: Int, proxy: ProxyHarness) {
        let upstream = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
        }
        defer { Task { await upstream.stop() } }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL, backlog: backlog)
        let output = scratch.appendingPathComponent("out-\(UUID().uuidString)")
        let result = try await proxy.curl(
            "/responses",
            [
                "-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                "--data-binary", #"{"model":"bench-model","input":"api","stream":true}"#,
            ] + headers.flatMap { ["-H", $0] }, output: output)
        #expect(result.stdout == "200", "\(result.stderr)")
        let store = try await proxy.stop()
        let detail = try #require(try await proxy.exchanges(in: store).first)
        let (stored, cut) = try await store.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT sum(length(data)) FROM event_batch") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM event_batch WHERE repeats IS NOT NULL") ?? 0
            )
        }
        return (try Data(contentsOf: output), detail, stored, cut, proxy)
    }

    private func payloads(_ frames: [String]) -> [[UInt8]] {
        frames.map { Fixtures.eventData($0) }
    }

    @Test func theRepeatsAreStoredOnceAndEveryByteReadsBack() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (frames, text) = Fixtures.apiTextStream(megabytes: 3)
        let run = try await proxied(frames, key: "sk-client-secret-0002")
        defer { run.proxy.remove() }
        #expect(run.received == Data(frames.joined().utf8), "the client gets the upstream's bytes unchanged")
        #expect(run.detail.summary.state == "completed" && run.detail.summary.responseId == "resp_api")
        #expect(run.detail.events.map(\.data) == payloads(frames), "every event reads back exactly")
        #expect(run.cut >= 1)
        #expect(run.stored < text.utf8.count + text.utf8.count / 5, "stored \(run.stored) bytes for \(text.utf8.count)")
    }

    /// With 64 KB of room in memory, nearly all of a fast stream waits for its recording in the spool: the
    /// client's bytes and the recorded events are still exact, in both shapes.
    @Test(arguments: ["small deltas", "the API's shape"])
    func aStreamFasterThanItsRecordingIsRecordedWholeThroughTheSpool(shape: String) async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frames =
            shape == "small deltas"
            ? Fixtures.largeTextStream(megabytes: 3) : Fixtures.apiTextStream(megabytes: 3).frames
        let run = try await proxied(frames, key: "sk-client-secret-0004", backlog: 64 << 10)
        defer { run.proxy.remove() }
        #expect(run.received == Data(frames.joined().utf8), "the client gets the upstream's bytes unchanged")
        #expect(run.detail.summary.state == "completed", "\(run.detail.summary.errorMessage ?? "")")
        #expect(run.detail.events.count == frames.count)
        #expect(run.detail.events.map(\.data) == payloads(frames), "every event reads back exactly")
        let offsets = run.detail.events.map(\.offsetMs)
        #expect(offsets == offsets.sorted(), "arrival times in order")
        let spooled = run.proxy.log.all.first { $0.contains("recorded through the spool") }
        #expect(
            spooled.map { (Int($0.split(separator: "=").last ?? "") ?? 0) > 1 << 20 } == true,
            "most of it went through the spool: \(spooled ?? "nothing")")
    }

    @Test func aKeyInTheAnswerKeepsTheFinalEventsWholeAndRedacted() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let key = "sk-client-secret-0003"
        let (frames, _) = Fixtures.apiTextStream(text: "The key is \(key). " + Fixtures.apiText(bytes: 300_000))
        let run = try await proxied(frames, key: key)
        defer { run.proxy.remove() }
        #expect(run.received == Data(frames.joined().utf8))
        #expect(run.cut == 0)
        #expect(run.detail.events.count == frames.count)
        #expect(run.detail.events.allSatisfy { !String(decoding: $0.data, as: UTF8.self).contains(key) })
        #expect(try !run.proxy.storeContains(key), "the key never reaches the store")
    }

    /// A gateway's key in a secret-named header, in the answer: the proxy's tap knows it as it knows the
    /// client's key (`RequestSecrets`), so the final events stay whole and redacted and every event reads back.
    @Test func aSecretHeadersValueInTheAnswerKeepsTheFinalEventsWholeAndRedacted() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let secret = "gateway-secret-0a1b2c3d4e"
        let (frames, _) = Fixtures.apiTextStream(
            text: "The gateway key is \(secret). " + Fixtures.apiText(bytes: 300_000))
        let run = try await proxied(frames, key: "sk-client-0004", headers: ["X-Gateway-Token: \(secret)"])
        defer { run.proxy.remove() }
        #expect(run.received == Data(frames.joined().utf8))
        #expect(run.cut == 0)
        #expect(run.detail.events.count == frames.count)
        #expect(run.detail.events.allSatisfy { !String(decoding: $0.data, as: UTF8.self).contains(secret) })
        #expect(try !run.proxy.storeContains(secret), "the header's value never reaches the store")
    }
}
