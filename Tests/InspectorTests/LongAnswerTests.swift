import Foundation
import GRDB
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// A long answer as the API sends it (multi-byte text in 32 KB deltas, then four final events that each
/// repeat the whole text), through real HTTP over loopback into a real inspector store: every event reads
/// the same text, and the inspector keeps every event's exact bytes, the final ones included (each written
/// as a row of its own from the event's own bytes).
@Suite("Long answers as the API sends them")
struct LongAnswerTests {
    @Test func theFinalEventsRepeatTheTextAndEveryByteIsKept() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, text) = Fixtures.apiTextStream(megabytes: 3)
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: Fixtures.chunked(frames))
        }
        var deltas = ""
        var finals: [String] = []
        var final: Response?
        try await recording(store, server: server) { client in
            for try await event in client.stream(CreateResponseRequest(model: "bench-model", input: "api")) {
                switch event.kind {
                case .outputTextDelta(let delta): deltas += delta.delta
                case .outputTextDone(let done): finals.append(done.text)
                case .contentPartDone(let part): finals.append(part.part.text)
                case .outputItemDone(let item):
                    if case .message(let message) = item.item { finals.append(message.text) }
                default: if event.isTerminal { final = event.response }
                }
            }
        }
        await server.stop()

        #expect(deltas.utf8.count == text.utf8.count)
        #expect(deltas == text)
        #expect(finals.count == 3)
        #expect(finals.allSatisfy { $0 == text })
        #expect(final?.outputText == text)

        let rows = try await store.store.recentExchanges()
        try #require(rows.count == 1)
        let detail = try #require(try await store.store.exchange(id: rows[0].id))
        let sent = frames.map { frame in
            Fixtures.eventData(frame)
        }
        try #require(detail.events.count == sent.count)
        #expect(detail.events.map(\.index) == Array(0..<sent.count))
        for (stored, original) in zip(detail.events, sent) where stored.data != original {
            Issue.record(
                "event \(stored.index) (\(stored.type)) is stored as \(stored.data.count) bytes, sent as \(original.count)"
            )
        }
        #expect(
            detail.events.suffix(4).map(\.type) == [
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed",
            ])
        #expect(detail.summary.state == "completed")
    }

    /// What `ask` asks for: the final events' repeats of the text are not decoded. The deltas still give the
    /// whole text, the final events keep their small fields (ids, status, usage) and say what they left out,
    /// and the inspector keeps every byte. A part whose final text is longer than its deltas reads as the
    /// part the deltas did not bring.
    @Test func withRepeatsOmittedTheDeltasAreTheTextAndEveryByteIsKept() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, text) = Fixtures.apiTextStream(megabytes: 3)
        // A second stream whose deltas stop 100 KB short: its final text is another length, so it is decoded.
        let shortIndex = frames.lastIndex { $0.hasPrefix("event: response.output_text.delta") }!
        let cut = Array(frames[..<(shortIndex - 3)]) + frames[(shortIndex + 1)...]
        let server = try await LoopbackServer.start { request in
            let parts = Fixtures.chunked(
                request.body.count > 0 && String(decoding: request.body, as: UTF8.self).contains("short") ? cut : frames
            )
            return Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: parts)
        }
        defer { Task { await server.stop() } }
        let finalTypes: Set = [
            "response.output_text.done", "response.content_part.done", "response.output_item.done",
            "response.completed",
        ]
        func run(_ input: String) async throws -> (deltas: String, events: [ResponseStreamEvent], deltaBytes: Int) {
            try await recording(store, server: server) { client in
                var deltas = ""
                var finals: [ResponseStreamEvent] = []
                var deltaBytes = 0
                let request = CreateResponseRequest(model: "bench-model", input: .string(input))
                for try await batch in client.streamBatches(request, repeatedText: .omitted) {
                    for event in batch {
                        if case .outputTextDelta(let delta) = event.kind {
                            deltas += delta.delta
                            deltaBytes += event.data.count
                        } else if finalTypes.contains(event.type) {
                            finals.append(event)
                        }
                    }
                }
                return (deltas, finals, deltaBytes)
            }
        }
        let (deltas, finals, deltaBytes) = try await run("api")
        #expect(deltas == text)
        // The deltas are read by their text: they keep no bytes (the recording has them, checked below).
        #expect(deltaBytes == 0)
        #expect(
            finals.map(\.type) == [
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed",
            ])
        #expect(finals.allSatisfy { $0.omitsRepeatedText })
        // What an event holds without its repeat is still its JSON, the text left empty.
        #expect(finals.allSatisfy { $0.data.count < 4096 && $0.json["type"]?.stringValue == $0.type })
        guard case .outputTextDone(let done)? = finals.first?.kind else {
            Issue.record("no output_text.done")
            return
        }
        #expect(done.text.isEmpty && done.itemID == "msg_api")
        let final = try #require(finals.last?.finalResponse)
        #expect(final.id == "resp_api" && final.status == .completed && final.usage?.outputTokens == 1000)
        #expect(final.outputText.isEmpty)

        let short = try await run("short")
        #expect(text.hasPrefix(short.deltas) && short.deltas.utf8.count < text.utf8.count)
        // Its final text reads as what followed the deltas: the new part only, which the console shows.
        let tail = String(decoding: text.utf8.dropFirst(short.deltas.utf8.count), as: UTF8.self)
        #expect(short.events.allSatisfy { $0.omitsRepeatedText })
        #expect(short.events.last?.finalResponse?.outputText == tail)

        let rows = try await store.store.recentExchanges()
        try #require(rows.count == 2)
        let sent = frames.map { frame in
            Fixtures.eventData(frame)
        }
        let first = try #require(rows.last)
        let detail = try #require(try await store.store.exchange(id: first.id))
        #expect(detail.events.map(\.data) == sent, "the omitted run's events are stored exactly as sent")
        #expect(detail.summary.state == "completed" && detail.summary.responseId == "resp_api")
    }
}
