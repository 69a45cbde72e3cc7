import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// With `RepeatedText.omitted` (what `ask` asks for) a final event's line is read in pieces as it arrives
/// and never held whole (`RepeatSkimmer`). Through real HTTP over loopback into a real store: every event
/// reads back exactly as sent whatever its final text does (repeat the deltas, go on past them, depart from
/// them partway), what the consumer reads is the text less what the deltas brought, and the API key never
/// reaches the store.
@Suite("Final events read in pieces")
struct SkimmedFinalEventTests {
    private func payloads(_ frames: [String]) -> [[UInt8]] {
        frames.map { Fixtures.eventData($0) }
    }

    /// Streams `frames` through a recording client that omits repeats; the consumer's `output_text.done`
    /// text and the events' flags, the stored exchange and the bytes stored.
    private func record(_ frames: [String], in store: TemporaryStore) async throws
        -> (doneText: String?, omitted: Int, detail: ExchangeDetail, stored: Int, cut: Int)
    {
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
        }
        let (doneText, omitted) = try await recording(store, server: server) { client in
            var doneText: String?
            var omitted = 0
            for try await batch in client.streamBatches(
                CreateResponseRequest(model: "bench-model", input: "api"), repeatedText: .omitted)
            {
                for event in batch {
                    if case .outputTextDone(let done) = event.kind { doneText = done.text }
                    if event.omitsRepeatedText { omitted += 1 }
                }
            }
            return (doneText, omitted)
        }
        await server.stop()
        let first = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: first.id))
        let (stored, cut) = try await store.store.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT sum(length(data)) FROM event_batch") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM event_batch WHERE repeats IS NOT NULL") ?? 0
            )
        }
        return (doneText, omitted, detail, stored, cut)
    }

    /// The frames with `change` applied to the final events only (those after the last delta).
    private func finals(of frames: [String], _ change: (String) -> String) -> [String] {
        let last = frames.lastIndex { $0.contains("output_text.delta") }!
        return frames.enumerated().map { $0.offset > last ? change($0.element) : $0.element }
    }

    @Test func repeatsAreCutAsTheyArriveAndReadBackExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, text) = Fixtures.apiTextStream(megabytes: 3)
        let result = try await record(frames, in: store)
        #expect(result.detail.events.map(\.data) == payloads(frames), "every event reads back exactly as sent")
        #expect(result.doneText == "", "the repeat reads as the empty string")
        #expect(result.omitted == 4)
        #expect(
            result.stored < text.utf8.count + text.utf8.count / 5,
            "stored \(result.stored) bytes for \(text.utf8.count)")
        #expect(result.cut >= 1)
    }

    @Test func aFinalTextThatGoesOnPastItsDeltasGivesTheRestAndIsKeptExactly() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let text = Fixtures.apiText(bytes: 2_500_000)
        let (frames, _) = Fixtures.apiTextStream(text: text)
        // The same stream with an ending the deltas never brought, in every final event.
        let ending = " — and a last sentence only the final events carry."
        let (longer, _) = Fixtures.apiTextStream(text: text + ending)
        let lastDelta = frames.lastIndex { $0.contains("output_text.delta") }!
        let extended =
            Array(frames[...lastDelta])
            + longer.suffix(from: longer.lastIndex { $0.contains("output_text.delta") }! + 1)
        let result = try await record(extended, in: store)
        #expect(result.detail.events.map(\.data) == payloads(extended))
        #expect(result.doneText == ending, "what followed the deltas is the new text")
        #expect(result.stored < text.utf8.count + text.utf8.count / 5)
    }

    @Test func aFinalTextThatDepartsPartwayIsKeptExactlyAndReadsEmpty() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, _) = Fixtures.apiTextStream(megabytes: 3)
        // The last word of the text changed in the final events: more than two megabytes match first.
        let altered = finals(of: frames) { frame in
            guard let range = frame.range(of: "wire", options: .backwards) else { return frame }
            return frame.replacingCharacters(in: range, with: "WIRE")
        }
        try #require(altered != frames)
        let result = try await record(altered, in: store)
        #expect(result.detail.events.map(\.data) == payloads(altered), "every event reads back exactly as sent")
        #expect(result.doneText == "", "a text that departed from the deltas shows nothing more")
        #expect(result.cut >= 1, "the part that matched is stored once")
    }

    @Test func theKeyInAFinalEventOutsideTheTextNeverReachesTheStore() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, _) = Fixtures.apiTextStream(megabytes: 1.5)
        let leaked = finals(of: frames) { frame in
            frame.replacingOccurrences(of: "\"sequence_number\":", with: "\"note\":\"\(testKey)\",\"sequence_number\":")
        }
        try #require(leaked != frames)
        let result = try await record(leaked, in: store)
        let dump = try await store.store.writer.read { db in
            try Data.fetchAll(db, sql: "SELECT data FROM event_batch").flatMap { Array($0) }
        }
        #expect(dump.withUnsafeBytes { ByteSearchProbe.contains(testKey, in: $0) } == false, "the key is not stored")
        for event in result.detail.events.suffix(4) {
            #expect(!String(decoding: event.data, as: UTF8.self).contains(testKey), "\(event.type)")
        }
    }
}

/// A plain search for a string's bytes (the test's own, not the code under test's).
enum ByteSearchProbe {
    static func contains(_ needle: String, in haystack: UnsafeRawBufferPointer) -> Bool {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return false }
        for start in 0...(haystack.count - bytes.count) where haystack[start] == bytes[0] {
            if bytes.indices.allSatisfy({ haystack[start + $0] == bytes[$0] }) { return true }
        }
        return false
    }
}
