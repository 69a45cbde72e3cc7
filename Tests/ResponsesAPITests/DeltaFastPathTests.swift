import Foundation
import TestSupport
import Testing

@testable import ResponsesAPI

/// The `output_text.delta` fast path decodes exactly what the general path decodes, and steps aside for
/// every shape it does not handle.
@Suite("Output text delta fast path")
struct DeltaFastPathTests {
    static let plain =
        #"{"type":"response.output_text.delta","sequence_number":74,"item_id":"msg_68d5f30b20a4819488897c4474d830f40eb1ac777f9e7501","output_index":1,"content_index":0,"delta":"The","logprobs":[],"obfuscation":"vcLfGww14wiGT"}"#

    /// Shapes the fast path takes.
    static let taken = [
        plain,
        #"{"type":"response.output_text.delta","delta":"Sure","logprobs":[],"item_id":"msg_0a50","content_index":0,"output_index":0,"sequence_number":5}"#,
        #"{"type":"response.output_text.delta","delta":"héllo wörld ✓ 𝄞"}"#,
        #"{"type":"response.output_text.delta","output_index":-3,"content_index":12,"delta":""}"#,
        #"{"type":"response.output_text.delta","delta":"first","delta":"second"}"#,
        #"{"type":"response.output_text.delta","sequence_number":123456789012345678,"delta":"x"}"#,
        #"{"type":"response.output_text.delta","sequence_number":7,"item_id":"msg"}"#,
    ]

    /// Shapes it leaves to the general path (each decodes there, as an event or as an error).
    static let declined = [
        #"{"type":"response.output_text.delta","delta":"a \"quoted\" word\n"}"#,
        #"{"type":"response.output_text.delta","delta":"tab\u0009"}"#,
        #"{"type":"response.output_text.delta", "delta":"spaced"}"#,
        #"{"type":"response.output_text.delta","delta" : "spaced"}"#,
        #"{"type":"response.output_text.delta","delta":"x"} "#,
        #"{"type":"response.output_text.delta","logprobs":[{"token":"x","logprob":-0.1,"bytes":[120],"top_logprobs":[]}],"delta":"x"}"#,
        #"{"type":"response.output_text.delta","summary_index":2,"delta":"x"}"#,
        #"{"type":"response.output_text.delta","future_field":{"a":1},"delta":"x"}"#,
        #"{"type":"response.output_text.delta","type":"response.refusal.delta","delta":"x"}"#,
        #"{"type":"response.output_text.delta","output_index":1.0,"delta":"x"}"#,
        #"{"type":"response.output_text.delta","output_index":01,"delta":"x"}"#,
        #"{"type":"response.output_text.delta","output_index":"1","delta":"x"}"#,
        #"{"type":"response.output_text.delta","sequence_number":1234567890123456789,"delta":"x"}"#,
        #"{"type":"response.output_text.delta","delta":null}"#,
        #"{"type":"response.output_text.delta","delta":"unterminated}"#,
        #"{"type":"response.output_text.delta","delta":"x""#,
        #"{"type":"response.output_text.delta","delta":"x",}"#,
        #"{"type":"response.output_text.delta""#,
        #"{"type":"response.output_text.deltas","delta":"x"}"#,
        #"{"sequence_number":1,"type":"response.output_text.delta","delta":"x"}"#,
    ]

    @Test("takes the plain shapes and agrees with the general path", arguments: taken)
    func fastPathTakes(_ data: String) throws {
        let bytes = Array(data.utf8)
        let fast = bytes.withUnsafeBufferPointer(ResponseStreamEvent.fastOutputTextDelta)
        #expect(fast != nil)
        // Where it says the delta's raw bytes are is where the stream would look them up.
        #expect(fast?.rawDelta == bytes.withUnsafeBufferPointer(JSONParser.deltaRange))
        let sse = ServerSentEvent(event: "response.output_text.delta", data: bytes)
        #expect(try ResponseStreamEvent(sse) == ResponseStreamEvent(general: sse))
    }

    @Test("declines every other shape", arguments: declined)
    func fastPathDeclines(_ data: String) {
        let bytes = Array(data.utf8)
        #expect(bytes.withUnsafeBufferPointer(ResponseStreamEvent.fastOutputTextDelta) == nil)
        let sse = ServerSentEvent(event: "response.output_text.delta", data: bytes)
        #expect((try? ResponseStreamEvent(sse)) == (try? ResponseStreamEvent(general: sse)))
    }

    /// The type and each key are compared a word at a time, the last word overlapping the one before: a
    /// change of any one byte of them, first, middle or last, sends the event to the general path.
    @Test func aKeyOrTypeOneByteOffIsDeclined() throws {
        let bytes = Array(Self.plain.utf8)
        let introducers = [
            #"{"type":"response.output_text.delta""#, #","sequence_number":"#, #","item_id":"#, #","output_index":"#,
            #","content_index":"#, #","delta":"#, #","logprobs":"#, #","obfuscation":"#,
        ]
        for introducer in introducers {
            let text = Array(introducer.utf8)
            let at = try #require(bytes.indices.first { bytes[$0...].starts(with: text) })
            for offset in text.indices {
                var changed = bytes
                changed[at + offset] = changed[at + offset] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                #expect(
                    changed.withUnsafeBufferPointer(ResponseStreamEvent.fastOutputTextDelta) == nil,
                    "\(introducer) with byte \(offset) changed")
            }
        }
    }

    @Test func invalidUTF8IsRepairedAlikeOnBothPaths() throws {
        let bytes =
            Array(#"{"type":"response.output_text.delta","delta":"a"#.utf8) + [0xFF, 0xC3] + Array(#"b"}"#.utf8)
        #expect(bytes.withUnsafeBufferPointer(ResponseStreamEvent.fastOutputTextDelta) != nil)
        let sse = ServerSentEvent(data: bytes)
        #expect(try ResponseStreamEvent(sse) == ResponseStreamEvent(general: sse))
    }

    /// Every delta of the project's fixtures.
    @Test func everyDeltaOfTheFixturesDecodesAlikeOnBothPaths() throws {
        let files = ["stream-hello.sse", "stream-every-event.sse", "stream-reasoning-citation.sse"].map {
            Fixtures.text($0)
        }
        #expect(try Self.compareBothPaths(files) > 0)
    }

    /// Every delta of the real recordings (skipped, and said so, when ../shared is absent).
    @Test(.enabled(if: Fixtures.conformanceDirectory != nil, "../shared/conformance is absent"))
    func everyRecordedDeltaDecodesAlikeOnBothPaths() throws {
        let directory = try #require(Fixtures.conformanceDirectory).appendingPathComponent("sse")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sse") }
        try #require(!names.isEmpty, "no recordings in \(directory.path)")
        let files = try names.map {
            String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self)
        }
        #expect(try Self.compareBothPaths(files) > 0)
    }

    /// A stream's deltas decoded one after another, as the pipeline does (one `LongStrings`, which gives the
    /// last item id back when the next delta names the same): each as the general path decodes it alone.
    @Test func anItemIDGivenBackIsTheOneTheDeltaNames() throws {
        let long = "msg_68af3c2e9b7c8190a1b2c3d4e5f60718293a4b5c6d7e8f90"
        let ids = [
            long, long, "msg_b", long, "", "", "msg_a", "msg_b", long + "x", String(long.dropLast()) + "Y", "é", "e",
        ]
        let longStrings = LongStrings()
        for (position, id) in ids.enumerated() {
            let data =
                #"{"type":"response.output_text.delta","sequence_number":\#(position),"item_id":"\#(id)","output_index":0,"content_index":0,"delta":"d","logprobs":[]}"#
            let sse = ServerSentEvent(event: "response.output_text.delta", data: data)
            let event = try ResponseStreamEvent(sse, longStrings: longStrings)
            #expect(longStrings.fastDelta != nil, "took the fast path: \(data)")
            #expect(try event == ResponseStreamEvent(general: sse), "\(data)")
            guard case .outputTextDelta(let delta) = event.kind else {
                Issue.record("not a delta: \(data)")
                continue
            }
            #expect(delta.itemID == id)
        }
    }

    /// Decodes every `output_text.delta` of `files` on both paths and expects the same event; returns how
    /// many took the fast path.
    static func compareBothPaths(_ files: [String]) throws -> Int {
        var fast = 0
        for file in files {
            var decoder = SSEDecoder()
            var events: [ServerSentEvent] = []
            decoder.push(Array(file.utf8)) { events.append($0) }
            decoder.finish { events.append($0) }
            for sse in events where sse.dataString.contains(#""type":"response.output_text.delta""#) {
                if let taken = sse.data.withUnsafeBufferPointer(ResponseStreamEvent.fastOutputTextDelta) {
                    fast += 1
                    #expect(
                        taken.rawDelta == sse.data.withUnsafeBufferPointer(JSONParser.deltaRange), "\(sse.dataString)")
                }
                #expect(try ResponseStreamEvent(sse) == ResponseStreamEvent(general: sse), "\(sse.dataString)")
            }
        }
        return fast
    }
}
