import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The stream rules `providers check --conformance` compares a server's streams with: they accept every
/// stream OpenAI was recorded sending (../shared/conformance/sse; skipped when absent), and reject crafted
/// bad streams at the right event, in the right words.
@Suite("Stream rules")
struct StreamRulesTests {
    static func decode(_ frames: [String]) throws -> [ResponseStreamEvent] {
        try ConformanceRecordingsTests.decode(Array(frames.joined().utf8), chunkSize: 0)
    }

    /// The loopback server's plain stream: created, in_progress, item added, part added, five deltas (events
    /// 5 to 9), text done, part done, item done, completed.
    static let good = Fixtures.textStream(id: "resp_rules", text: "one two three four five")

    @Test func aGoodStreamFollowsThem() throws {
        #expect(StreamRules().firstDifference(try Self.decode(Self.good)) == nil)
        #expect(StreamRules().firstDifference(try Self.decode(Self.good + ["data: [DONE]\n\n"])) == nil)
    }

    @Test func aMissingSequenceNumberIsNamedWithItsEvent() throws {
        var frames = Self.good
        frames[6] = frames[6].replacingOccurrences(of: #""sequence_number":6,"#, with: "")
        let difference = StreamRules().firstDifference(try Self.decode(frames))
        #expect(difference?.description == "event 7 `response.output_text.delta`: no `sequence_number`")
    }

    @Test func aGapInTheSequenceNumbersIsNamed() throws {
        var frames = Self.good
        frames[5] = frames[5].replacingOccurrences(of: #""sequence_number":5,"#, with: #""sequence_number":6,"#)
        let difference = StreamRules().firstDifference(try Self.decode(frames))
        #expect(
            difference?.description == "event 6 `response.output_text.delta`: `sequence_number` 6 after 4 (expected 5)")
        frames = Self.good
        frames[0] = frames[0].replacingOccurrences(of: #""sequence_number":0,"#, with: #""sequence_number":1,"#)
        #expect(
            StreamRules().firstDifference(try Self.decode(frames))?.description
                == "event 1 `response.created`: `sequence_number` starts at 1, not 0")
    }

    @Test func aStreamWithoutResponseCompletedIsRejected() throws {
        let frames = Array(Self.good.dropLast())
        let difference = StreamRules().firstDifference(try Self.decode(frames))
        #expect(difference?.description == "the stream ended after event 12 without `response.completed`")
        #expect(difference?.position == 0)
    }

    @Test func eventsOutOfOrderAreRejected() throws {
        var frames = Self.good
        let delta = frames.remove(at: 4)
        frames.insert(delta, at: 2)
        // Numbered again so that only the order is wrong.
        let renumbered = frames.enumerated().map { index, frame in
            frame.replacing(#/"sequence_number":\d+/#, with: "\"sequence_number\":\(index)")
        }
        #expect(
            StreamRules().firstDifference(try Self.decode(renumbered))?.description
                == "event 3 `response.output_text.delta`: output item 0 is not open (added and not done)")
        let first = Array(Self.good[1...]).enumerated().map { index, frame in
            frame.replacing(#/"sequence_number":\d+/#, with: "\"sequence_number\":\(index)")
        }
        #expect(
            StreamRules().firstDifference(try Self.decode(first))?.description
                == "event 1 `response.in_progress`: the stream starts with it, not with `response.created`")
    }

    @Test func anUnknownTypeAndAMissingFieldAreNamed() throws {
        var frames = Self.good
        frames[4] = frames[4].replacingOccurrences(of: "response.output_text.delta", with: "response.text.delta")
        #expect(
            StreamRules().firstDifference(try Self.decode(frames))?.description
                == "event 5 `response.text.delta`: not an event type OpenAI sends")
        frames = Self.good
        frames[4] = frames[4].replacingOccurrences(of: #""content_index":0,"#, with: "")
        #expect(
            StreamRules().firstDifference(try Self.decode(frames))?.description
                == "event 5 `response.output_text.delta`: no `content_index`")
        frames = Self.good
        frames[frames.count - 1] = frames[frames.count - 1].replacingOccurrences(of: #""usage":{"#, with: #""use":{"#)
        #expect(
            StreamRules().firstDifference(try Self.decode(frames))?.description
                == "event 13 `response.completed`: the completed response has no `usage`")
    }
}
