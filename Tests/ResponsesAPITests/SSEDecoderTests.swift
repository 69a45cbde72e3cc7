import Foundation
import ResponsesAPI
import Testing

/// Feeds `text` to a decoder in chunks of `chunkSize` bytes (0: all at once) and returns the events.
func decodeSSE(_ bytes: [UInt8], chunkSize: Int = 0) -> [ServerSentEvent] {
    var decoder = SSEDecoder()
    var events: [ServerSentEvent] = []
    let size = chunkSize == 0 ? max(bytes.count, 1) : chunkSize
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + size, bytes.count)
        decoder.push(bytes[offset..<end]) { events.append($0) }
        offset = end
    }
    decoder.finish { events.append($0) }
    return events
}

func decodeSSE(_ text: String, chunkSize: Int = 0) -> [ServerSentEvent] {
    decodeSSE(Array(text.utf8), chunkSize: chunkSize)
}

@Suite("SSE decoder")
struct SSEDecoderTests {
    @Test func decodesEventAndData() {
        let events = decodeSSE("event: response.created\ndata: {\"a\":1}\n\n")
        #expect(events == [ServerSentEvent(event: "response.created", data: "{\"a\":1}")])
    }

    @Test("LF, CRLF and CR line endings give the same events", arguments: ["\n", "\r\n", "\r"])
    func lineEndings(_ newline: String) {
        let text = ["event: one", "data: first", "", "data: second", "", ""].joined(separator: newline)
        let events = decodeSSE(text)
        #expect(events == [ServerSentEvent(event: "one", data: "first"), ServerSentEvent(data: "second")])
    }

    @Test func crlfSplitAcrossChunksIsOneLineEnding() {
        // "data: a\r" | "\ndata: b\r\n\r\n": the CR ending the first chunk and the LF starting the next are
        // one line ending. Read as two, the LF would end an empty line, dispatching "a" alone, then "b".
        var decoder = SSEDecoder()
        var events: [ServerSentEvent] = []
        decoder.push(Array("data: a\r".utf8)) { events.append($0) }
        decoder.push(Array("\ndata: b\r\n\r\n".utf8)) { events.append($0) }
        decoder.finish { events.append($0) }
        #expect(events == [ServerSentEvent(data: "a\nb")])
    }

    @Test("a CRLF split anywhere between two chunks", arguments: 1..<30)
    func crlfStreamSplitInTwo(_ at: Int) {
        let bytes = Array("event: e\r\ndata: a\r\ndata: b\r\n\r\n".utf8)
        var decoder = SSEDecoder()
        var events: [ServerSentEvent] = []
        decoder.push(bytes[..<at]) { events.append($0) }
        decoder.push(bytes[at...]) { events.append($0) }
        decoder.finish { events.append($0) }
        #expect(events == [ServerSentEvent(event: "e", data: "a\nb")], "split after byte \(at)")
    }

    @Test func aCRAtAChunkEndThenAnotherCRIsTwoLineEndings() {
        // A CR ending a chunk followed by anything but LF: the CR alone ended the line.
        var decoder = SSEDecoder()
        var events: [ServerSentEvent] = []
        decoder.push(Array("data: a\r".utf8)) { events.append($0) }
        decoder.push(Array("\rdata: b\r".utf8)) { events.append($0) }
        decoder.push(Array("\r".utf8)) { events.append($0) }
        decoder.finish { events.append($0) }
        #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    }

    @Test func multiLineDataIsJoinedWithLF() {
        let events = decodeSSE("data: {\"type\":\ndata:\"x\"}\n\n")
        #expect(events.map(\.dataString) == ["{\"type\":\n\"x\"}"])
    }

    @Test func commentsAndUnknownFieldsAreIgnored() {
        let events = decodeSSE(": keep-alive\nfoo: bar\ndata: x\n: another\n\n: trailing\n\n")
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func onlyOneLeadingSpaceIsStripped() {
        let events = decodeSSE("data:  two spaces\ndata:none\n\n")
        #expect(events.map(\.dataString) == [" two spaces\nnone"])
    }

    @Test func fieldWithoutColonAndEmptyData() {
        // "data" alone is a data field with an empty value: the event is dispatched with empty data.
        let events = decodeSSE("data\n\nevent: no-data\n\n")
        #expect(events == [ServerSentEvent(data: "")])
    }

    @Test func eventWithoutDataIsNotDispatchedAndItsNameDoesNotLeak() {
        let events = decodeSSE("event: orphan\n\ndata: x\n\n")
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func idPersistsAndRetryIsParsed() {
        let events = decodeSSE("id: 7\nretry: 1500\ndata: a\n\ndata: b\n\nretry: x1\ndata: c\n\n")
        #expect(events.map(\.id) == ["7", "7", "7"])
        #expect(events.map(\.retry) == [1500, nil, nil])
    }

    @Test func byteOrderMarkIsStripped() {
        let events = decodeSSE([0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func lastEventWithoutBlankLineIsDispatchedAtEnd() {
        #expect(decodeSSE("data: tail") == [ServerSentEvent(data: "tail")])
        #expect(decodeSSE("data: tail\n") == [ServerSentEvent(data: "tail")])
    }

    @Test func doneMarkerIsRecognised() {
        let events = decodeSSE("data: {\"x\":1}\n\ndata: [DONE]\n\n")
        #expect(events.map(\.isDoneMarker) == [false, true])
    }

    @Test("any chunking gives the same events, UTF-8 never split", arguments: [1, 2, 3, 7, 64, 4096])
    func chunkingDoesNotMatter(_ size: Int) {
        let text =
            "event: e\r\ndata: héllo wörld 👋 \u{1F680}\r\n\r\n: c\rdata: second\rdata: line\r\rdata: "
            + String(repeating: "x", count: 300)
        let whole = decodeSSE(text)
        #expect(decodeSSE(text, chunkSize: size) == whole)
        #expect(whole.first?.dataString == "héllo wörld 👋 \u{1F680}")
        #expect(whole.count == 3)
    }

    @Test func veryLongLineAcrossManyChunks() {
        let payload = String(repeating: "abcdefghij", count: 500_000)  // 5 MB on one line
        let events = decodeSSE("data: \(payload)\n\n", chunkSize: 16 * 1024)
        #expect(events.count == 1)
        #expect(events.first?.data.count == payload.utf8.count)
    }

    /// The decoder puts the next event's data into the last one's buffer: a consumer that reads each event
    /// and keeps nothing, and one that keeps every event, both get each event's own bytes, whatever the
    /// lengths (growing, shrinking, empty, past a small buffer's room) and the chunking.
    @Test("an event's buffer, reused for the next, never shows through", arguments: [1, 5, 64, 4096])
    func reusedBuffersKeepEachEventsBytes(_ chunkSize: Int) {
        let lengths = [3, 40, 1, 0, 200, 17, 17, 1000, 2, 64, 65, 5]
        let payloads = lengths.enumerated().map { index, length in
            String((0..<length).map { Character(UnicodeScalar(UInt8(97 + (index + $0) % 26))) })
        }
        let bytes = Array(payloads.map { "data: \($0)\n\n" }.joined().utf8)
        var decoder = SSEDecoder()
        var seen: [String] = []
        var kept: [ServerSentEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            decoder.push(bytes[offset..<end]) { event in
                seen.append(event.dataString)
                if seen.count % 3 == 0 { kept.append(event) }
            }
            offset = end
        }
        decoder.finish { seen.append($0.dataString) }
        #expect(seen == payloads)
        #expect(kept.map(\.dataString) == payloads.enumerated().filter { ($0.offset + 1) % 3 == 0 }.map(\.element))
    }

    /// A large event does not leave its room to the small events after it that the consumer keeps (each
    /// would hold 30 KB for a few bytes).
    @Test func aLargeEventsBufferIsNotPassedToTheSmallOnesAfterIt() {
        let large = "data: {\"instructions\":\"" + String(repeating: "x", count: 30_000) + "\"}\n\n"
        let small = (0..<50).map { "data: {\"delta\":\"\($0)\"}\n\n" }.joined()
        var kept: [ServerSentEvent] = []
        var decoder = SSEDecoder()
        decoder.push(Array((large + small).utf8)) { kept.append($0) }
        #expect(kept.count == 51)
        #expect(
            kept.dropFirst().allSatisfy { $0.data.capacity < 1024 },
            "\(kept.dropFirst().map(\.data.capacity).max() ?? 0)")
    }
}
