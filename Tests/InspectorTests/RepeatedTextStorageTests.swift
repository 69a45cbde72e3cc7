import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// The API's final events repeat the whole answer; the inspector stores that text once (the deltas hold
/// it) and puts it back when an event is read. Through real HTTP over loopback into a real store: what is
/// read is exactly what was sent, what is stored is about the answer's size, and anything that would make
/// the cut unsafe (a final text that differs, a secret) keeps the event whole.
@Suite("Final events stored once")
struct RepeatedTextStorageTests {
    /// The `data:` payloads of frames, as sent.
    private func payloads(_ frames: [String]) -> [[UInt8]] {
        frames.map { Fixtures.eventData($0) }
    }

    /// Streams `frames` through a recording client (every string decoded, as `chat` does) and returns the
    /// stored exchange, the bytes its batches hold and how many batches have cuts.
    private func record(_ frames: [String], in store: TemporaryStore) async throws -> (
        detail: ExchangeDetail, stored: Int, cut: Int
    ) {
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
        }
        try await recording(store, server: server) { client in
            for try await _ in client.stream(CreateResponseRequest(model: "bench-model", input: "api")) {}
        }
        await server.stop()
        let rows = try await store.store.recentExchanges()
        let first = try #require(rows.first)
        let detail = try #require(try await store.store.exchange(id: first.id))
        let (stored, cut) = try await store.store.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT sum(length(data)) FROM event_batch") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM event_batch WHERE repeats IS NOT NULL") ?? 0
            )
        }
        return (detail, stored, cut)
    }

    @Test func theFinalEventsAreStoredOnceAndReadBackExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, text) = Fixtures.apiTextStream(megabytes: 3)
        let sent = payloads(frames)
        let (detail, stored, cut) = try await record(frames, in: store)
        #expect(detail.events.map(\.data) == sent, "every event reads back exactly as sent")
        let wire = sent.reduce(0) { $0 + $1.count }
        #expect(wire > 4 * text.utf8.count)
        #expect(
            stored < text.utf8.count + text.utf8.count / 5,
            "stored \(stored) bytes for a \(text.utf8.count)-byte answer")
        #expect(cut >= 1)
    }

    @Test func aFinalTextThatDiffersFromTheDeltasIsStoredWhole() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, _) = Fixtures.apiTextStream(megabytes: 0.5)
        // The same length, one word changed in the final events only: no cut may stand in for it.
        let last = frames.lastIndex { $0.contains("output_text.delta") }!
        let altered = frames.enumerated().map {
            $0.offset > last ? $0.element.replacingOccurrences(of: "wire", with: "WIRE") : $0.element
        }
        let (detail, _, cut) = try await record(altered, in: store)
        #expect(detail.events.map(\.data) == payloads(altered))
        #expect(cut == 0)
    }

    @Test func aSecretInTheAnswerKeepsTheFinalEventsWholeAndRedacted() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        // The key falls across two deltas: neither holds it whole, the final events do.
        let filler = Fixtures.apiText(bytes: 200_000)
        let split = filler.utf8.index(filler.utf8.startIndex, offsetBy: 32 * 1024 - 10)
        let boundary = filler[..<split].lastIndex { $0 == " " }!
        let text =
            String(filler[...boundary]) + String(repeating: "x", count: 32 * 1024 - 10 - filler[...boundary].utf8.count)
            + testKey + " " + filler + filler
        let (frames, _) = Fixtures.apiTextStream(text: text)
        let (detail, _, cut) = try await record(frames, in: store)
        #expect(cut == 0)
        let finals = detail.events.suffix(4)
        #expect(finals.map(\.type).first == "response.output_text.done")
        for event in finals {
            let data = String(decoding: event.data, as: UTF8.self)
            #expect(!data.contains(testKey) && data.contains(Redactor.placeholder), "\(event.type) is stored redacted")
        }
    }

    @Test func aSecretInsideOneDeltaKeepsTheFinalEventsWholeAndEveryEventRedacted() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        // The key well inside the first delta: that delta is stored redacted, so no text could be put back
        // from the deltas; the final events go whole, and are redacted too.
        let filler = Fixtures.apiText(bytes: 300_000)
        let text = "Your key is " + testKey + ". " + filler
        let (frames, _) = Fixtures.apiTextStream(text: text)
        let (detail, _, cut) = try await record(frames, in: store)
        #expect(cut == 0)
        #expect(detail.events.count == frames.count)
        let holding = detail.events.filter { String(decoding: $0.data, as: UTF8.self).contains(Redactor.placeholder) }
        #expect(holding.count == 5, "the first delta and the four final events: \(holding.map(\.type))")
        #expect(detail.events.allSatisfy { !String(decoding: $0.data, as: UTF8.self).contains(testKey) })
    }

    @Test func aChangedDeltaIsReportedInsteadOfAWrongEvent() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, _) = Fixtures.apiTextStream(megabytes: 0.5)
        let (detail, _, cut) = try await record(frames, in: store)
        try #require(cut >= 1)
        // Damage a delta's text (same length) behind the store's back.
        try await store.store.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE event_batch SET data = CAST(replace(CAST(data AS TEXT), 'wire', 'wyre') AS BLOB)
                    WHERE CAST(data AS TEXT) LIKE '%output_text.delta%'
                    """)
        }
        do {
            _ = try await store.store.exchange(id: detail.summary.id)
            Issue.record("a final event was rebuilt from changed deltas")
        } catch {
            let message = "\(error)"
            #expect(
                message.contains("exchange \(detail.summary.id)") && message.contains("does not match"), "\(message)")
        }
    }
}
