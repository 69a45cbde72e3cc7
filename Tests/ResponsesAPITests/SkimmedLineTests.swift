import Foundation
import TestSupport
import Testing

@testable import ResponsesAPI

/// Where a long line is skimmed and where it is not, found by a review's fuzzing: a text whose checkpoints
/// all fall inside escapes is still dropped as it is matched; candidates taken before a read that also
/// brought the last delta are not used for a line that begins in that read; a long delta is never skimmed,
/// with or without `event:` names.
@Suite("Long lines skimmed, or not")
struct SkimmedLineTests {
    private let source = RepeatedTextSource(
        deltaType: "response.output_text.delta", outputIndex: 0, partField: "content_index", partIndex: 0)

    private func candidate(_ raw: [UInt8], interval: Int) -> RepeatSkimmer.Candidate {
        var hasher = FingerprintHasher()
        var checkpoints: [LongStrings.Fingerprint] = []
        for start in stride(from: 0, to: raw.count, by: interval) {
            hasher.update(Array(raw[start..<min(raw.count, start + interval)]))
            if hasher.count % interval == 0 { checkpoints.append(hasher.finalize()) }
        }
        return .init(source: source, fingerprint: hasher.finalize(), checkpoints: checkpoints)
    }

    @Test func aTextWhoseCheckpointsFallInsideEscapesIsNotHeld() {
        // "a" then 2,000 escaped quotes: with an even interval every checkpoint follows an escape's backslash.
        let raw = Array("a".utf8) + Array(repeating: Array(#"\""#.utf8), count: 2000).flatMap { $0 }
        let line = Array(#"{"t":""#.utf8) + raw + Array(#""}"#.utf8)
        var skimmer = RepeatSkimmer(candidates: [candidate(raw, interval: 16)], threshold: 8, interval: 16)
        var most = 0
        for byte in line.dropLast(2) {
            [byte].withUnsafeBufferPointer { skimmer.push($0) }
            most = max(most, skimmer.heldBytes)
        }
        #expect(most < 64, "held \(most) bytes of a \(raw.count)-byte repeat")
        Array(#""}"#.utf8).withUnsafeBufferPointer { skimmer.push($0) }
        let result = skimmer.finish()
        #expect(result.bytes == Array(#"{"t":""}"#.utf8) && result.repeats.first?.whole == true)
    }

    @Test func candidatesFromBeforeAReadThatBroughtTheLastDeltaAreNotUsed() {
        let (frames, _) = Fixtures.apiTextStream(megabytes: 0.5)
        let lastDelta = frames.lastIndex { $0.contains("output_text.delta") }!
        let before = Array(frames[..<lastDelta].joined().utf8)
        let rest = Array(frames[lastDelta...].joined().utf8)
        let deltaBytes = frames[..<(lastDelta + 1)].reduce(0) { total, frame in
            guard frame.contains("output_text.delta"), let range = frame.range(of: #""delta":""#) else { return total }
            let tail = frame[range.upperBound...]
            return total + tail.utf8.prefix { $0 != UInt8(ascii: "\"") }.count
        }
        var tap = StreamTap()
        var recorded: [RecordedEvents.Entry] = []
        // One read with the last delta and the first 200 KB of the first final event, then the rest.
        let split = frames[lastDelta].utf8.count + 200_000
        for piece in [before, Array(rest.prefix(split)), Array(rest.dropFirst(split))] {
            recorded += piece.withUnsafeBytes { tap.push($0, at: .zero) }.entries
        }
        recorded += tap.finish(at: .zero).entries
        let finals = recorded.filter { $0.type.hasSuffix(".done") || $0.type == "response.completed" }
        #expect(finals.count == 4)
        for entry in finals {
            #expect(
                entry.repeats.map(\.count) == [deltaBytes],
                "\(entry.type): the whole text, not the text less its last delta")
            #expect(entry.count < 4096, "\(entry.type) kept \(entry.count) bytes")
        }
    }

    @Test(arguments: [true, false])
    func aLongDeltaIsNeverSkimmed(withEventNames: Bool) {
        let raw = Array(String(repeating: "word and more words ", count: 40).utf8)
        for (type, skimmed) in [("response.output_text.delta", false), ("response.output_text.done", true)] {
            let name = withEventNames ? "event: \(type)\n" : ""
            let opening = Array("data: {\"type\":\"response.created\"}\n\n".utf8)
            let frame =
                Array("\(name)data: {\"type\":\"\(type)\",\"sequence_number\":3,\"delta\":\"".utf8) + raw
                + Array("\"}\n\n".utf8)
            var decoder = SSEDecoder(longLine: 64)
            decoder.skimThreshold = 16
            decoder.skimInterval = 32
            decoder.skimCandidates = [candidate(raw, interval: 32)]
            var events: [ServerSentEvent] = []
            let stream = opening + frame
            for start in stride(from: 0, to: stream.count, by: 50) {
                Array(stream[start..<min(stream.count, start + 50)]).withUnsafeBytes {
                    decoder.push($0) { events.append($0) }
                }
            }
            #expect(events.count == 2)
            #expect(events.last?.repeats.isEmpty == !skimmed, "\(type), event names \(withEventNames)")
            if !skimmed { #expect(events.last?.data == Array(frame.dropFirst(name.utf8.count + 6).dropLast(2))) }
        }
    }

    /// Texts whose deltas alternate (two parts of one message, and a reasoning summary between them) are each
    /// recognised in the final events: every delta goes to its own text's fingerprint, whichever came last.
    @Test func deltasOfTextsThatAlternateEachGoToTheirOwnText() {
        func frame(_ json: String) -> String { "data: \(json)\n\n" }
        let parts = (0..<2).map { part in (0..<1_600).map { "part \(part), piece \($0) of the answer, said in words; " }
        }
        let summary = (0..<1_600).map { "thinking \($0) about it, at some length, before answering; " }
        var frames = [frame(#"{"type":"response.created","sequence_number":0}"#)]
        var sequence = 1
        for index in 0..<1_600 {
            for part in 0..<2 {
                frames.append(
                    frame(
                        #"{"type":"response.output_text.delta","sequence_number":\#(sequence),"item_id":"msg","output_index":1,"content_index":\#(part),"delta":"\#(parts[part][index])"}"#
                    ))
                sequence += 1
            }
            frames.append(
                frame(
                    #"{"type":"response.reasoning_summary_text.delta","sequence_number":\#(sequence),"item_id":"rs","output_index":0,"summary_index":0,"delta":"\#(summary[index])"}"#
                ))
            sequence += 1
        }
        for part in 0..<2 {
            frames.append(
                frame(
                    #"{"type":"response.output_text.done","sequence_number":\#(sequence),"item_id":"msg","output_index":1,"content_index":\#(part),"text":"\#(parts[part].joined())"}"#
                ))
            sequence += 1
        }
        frames.append(
            frame(
                #"{"type":"response.reasoning_summary_text.done","sequence_number":\#(sequence),"item_id":"rs","output_index":0,"summary_index":0,"text":"\#(summary.joined())"}"#
            ))
        var tap = StreamTap()
        var recorded: [RecordedEvents.Entry] = []
        for piece in frames { recorded += Array(piece.utf8).withUnsafeBytes { tap.push($0, at: .zero) }.entries }
        recorded += tap.finish(at: .zero).entries
        let finals = recorded.filter { $0.type.hasSuffix(".done") }
        #expect(finals.count == 3)
        let texts = [parts[0].joined(), parts[1].joined(), summary.joined()]
        for (entry, text) in zip(finals, texts) {
            #expect(entry.repeats.map(\.count) == [text.utf8.count], "\(entry.type): its own text")
            #expect(entry.count < 512, "\(entry.type) kept \(entry.count) bytes")
        }
    }
}
