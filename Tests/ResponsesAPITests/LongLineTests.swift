import Foundation
import TestSupport
import Testing

@testable import ResponsesAPI

/// The two places a long answer's final events pass through whole: the SSE decoder, which moves a long data
/// line into the event instead of copying it, and the JSON parser, which decodes a long string once per
/// stream and finds it again by its bytes.
@Suite("Long lines and long strings")
struct LongLineTests {
    let long = String(repeating: "héllo wörld 🙂 ", count: 12_000)  // about 220 KB

    @Test func aLongDataLineIsTheSameEventHoweverItArrives() {
        for separator in ["data: ", "data:"] {
            let stream =
                "event: big\n\(separator)\(long)\n\ndata: after\n\n:comment\ndata: one\n\(separator)\(long)\n\n"
            let whole = decodeSSE(stream)
            #expect(whole.map(\.dataString) == [long, "after", "one\n" + long], "\(separator)")
            #expect(whole.first?.event == "big")
            for size in [1, 7, 4096, 65_536] {
                #expect(decodeSSE(stream, chunkSize: size) == whole, "\(separator) in chunks of \(size)")
            }
        }
        // The room the client asks for ahead of a long line (what its deltas brought) changes no event, whether
        // it is too small, right or far too large.
        for hint in [100_000, 230_000, 50_000_000] {
            let stream = "event: big\ndata: \(long)\n\n: \(long)\ndata: x\n\n"
            var decoder = SSEDecoder()
            decoder.longLineHint = hint
            var events: [ServerSentEvent] = []
            let bytes = Array(stream.utf8)
            for start in stride(from: 0, to: bytes.count, by: 4096) {
                decoder.push(bytes[start..<min(start + 4096, bytes.count)]) { events.append($0) }
            }
            decoder.finish { events.append($0) }
            #expect(events == decodeSSE(stream), "with room for \(hint) bytes")
        }
        // A long first line keeps the rule for a byte-order mark, and a long comment is still a comment.
        #expect(decodeSSE("\u{FEFF}data: \(long)\n\n", chunkSize: 1000).map(\.dataString) == [long])
        #expect(decodeSSE(": \(long)\ndata: x\n\n", chunkSize: 1000).map(\.dataString) == ["x"])
    }

    @Test func aLongStringIsDecodedOnceAndFoundAgainByItsBytes() throws {
        let text = long + "\nline two \"quoted\" \\ and \u{1F680}"
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst()
            .dropLast()
        let longStrings = LongStrings()
        func textField(_ json: String) throws -> String? {
            var value: String?
            try Array(json.utf8).withUnsafeBufferPointer { buffer in
                try JSONParser.parseFields(
                    buffer, wanted: { String(decoding: $0, as: UTF8.self) == "text" ? "text" : nil },
                    longStrings: longStrings
                ) { _, found in value = found.stringValue }
            }
            return value
        }
        #expect(try textField(#"{"type":"a","text":\#(quoted)}"#) == text)
        // The same bytes again: the same text, now from the stream's long strings.
        #expect(try textField(#"{"text":\#(quoted),"type":"b"}"#) == text)
        // Other bytes of the same length are another text.
        let other = String(quoted.dropLast(2)) + "\u{1F681}\""
        #expect(try textField(#"{"text":\#(other)}"#) == String(text.dropLast()) + "\u{1F681}")
        // Short strings are left alone, and an invalid long one is still an error with its position.
        #expect(try textField(#"{"text":"short"}"#) == "short")
        #expect(throws: JSONParseError.self) { try textField("{\"text\":\"\(long)\u{01}\"}") }
    }
}
