import Testing

@testable import ResponsesAPI

/// `RepeatSkimmer` reads a final event's line in pieces and cuts out the strings that repeat a delta text.
/// Held to one rule whatever the chunking (down to one byte), the escapes at its checkpoints and the
/// shape of the final text (the same, longer, departing partway, cut off): the cut bytes with each span put
/// back from the deltas' raw text are exactly the line. Small thresholds and intervals put checkpoints
/// everywhere.
@Suite("Final events skimmed in pieces")
struct RepeatSkimmerTests {
    private let source = RepeatedTextSource(
        deltaType: "response.output_text.delta", outputIndex: 0, partField: "content_index", partIndex: 0)

    /// Raw JSON string content (escapes included) of about `count` bytes, seeded.
    private func rawText(_ count: Int, seed: UInt64) -> [UInt8] {
        let tokens = ["a", "b", "word ", "\\\"", "\\\\", "\\n", "\\u00e9", "é", "日本", " ", "\\\\\\\""]
        var state = seed
        var out: [UInt8] = []
        while out.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            out.append(contentsOf: tokens[Int(state >> 33) % tokens.count].utf8)
        }
        return out
    }

    /// The candidate the deltas of `raw` make, with a checkpoint every `interval` bytes.
    private func candidate(_ raw: [UInt8], interval: Int) -> RepeatSkimmer.Candidate {
        var hasher = FingerprintHasher()
        var checkpoints: [LongStrings.Fingerprint] = []
        var from = 0
        while from < raw.count {
            let upTo = min(raw.count, from + interval)
            raw.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[from..<upTo])) }
            if hasher.count % interval == 0 { checkpoints.append(hasher.finalize()) }
            from = upTo
        }
        return .init(source: source, fingerprint: hasher.finalize(), checkpoints: checkpoints)
    }

    private func skim(
        _ line: [UInt8], candidates: [RepeatSkimmer.Candidate], pieces: Int, threshold: Int = 40, interval: Int = 64
    ) -> RepeatSkimmer.Result {
        var skimmer = RepeatSkimmer(candidates: candidates, threshold: threshold, interval: interval)
        var from = 0
        var state = UInt64(pieces)
        while from < line.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let size = pieces == 1 ? 1 : 1 + Int(state >> 33) % pieces
            let upTo = min(line.count, from + size)
            line.withUnsafeBufferPointer { skimmer.push(UnsafeBufferPointer(rebasing: $0[from..<upTo])) }
            from = upTo
        }
        return skimmer.finish()
    }

    /// The cut bytes with each span's prefix of `raw` put back.
    private func restored(_ result: RepeatSkimmer.Result, raw: [UInt8]) -> [UInt8] {
        var bytes = result.bytes
        for skimmed in result.repeats.reversed() {
            var hasher = FingerprintHasher()
            hasher.update(Array(raw.prefix(skimmed.span.count)))
            #expect(hasher.finalize() == skimmed.span.fingerprint)
            bytes.insert(contentsOf: raw.prefix(skimmed.span.count), at: skimmed.span.start)
        }
        return bytes
    }

    private func line(_ strings: [[UInt8]]) -> [UInt8] {
        var out = Array(#"{"type":"response.output_text.done","sequence_number":9"#.utf8)
        for (index, string) in strings.enumerated() {
            out += Array(#","s\#(index)":""#.utf8) + string + [0x22]
        }
        return out + Array(#","short":"a \"quoted\" word"}"#.utf8)
    }

    @Test(arguments: [1, 3, 17, 64, 500, 100_000])
    func aWholeRepeatIsCutAndPutBackExactly(pieces: Int) {
        for seed in 1...6 as ClosedRange<UInt64> {
            let raw = rawText(700 + Int(seed) * 37, seed: seed)
            let original = line([raw, Array("between".utf8), raw])
            let result = skim(original, candidates: [candidate(raw, interval: 64)], pieces: pieces)
            #expect(restored(result, raw: raw) == original, "seed \(seed)")
            #expect(result.repeats.count == 2 && result.repeats.allSatisfy { $0.whole && $0.span.count == raw.count })
            #expect(
                result.bytes == line([[], Array("between".utf8), []]),
                "seed \(seed): both repeats read as empty strings")
        }
    }

    @Test(arguments: [1, 5, 300])
    func aTextThatGoesOnIsCutUpToTheDeltasAndKeepsTheRest(pieces: Int) {
        let raw = rawText(900, seed: 7)
        let tail = Array(" and then some more words".utf8)
        let original = line([raw + tail])
        let result = skim(original, candidates: [candidate(raw, interval: 64)], pieces: pieces)
        #expect(restored(result, raw: raw) == original)
        let only = try! #require(result.repeats.first)
        #expect(result.repeats.count == 1 && only.extended && !only.whole && only.span.count == raw.count)
        #expect(Array(result.bytes[only.span.start..<only.restEnd]) == tail, "what followed the deltas is kept")
    }

    @Test(arguments: [1, 9, 1000])
    func aTextThatDepartsPartwayKeepsItsBytesFromTheLastMatchingCheckpoint(pieces: Int) {
        for seed in 10...16 as ClosedRange<UInt64> {
            let raw = rawText(2_000, seed: seed)
            var changed = raw
            let at = 300 + Int(seed) * 97
            changed[at] =
                changed[at] == UInt8(ascii: "a")
                ? UInt8(ascii: "b") : changed[at] == UInt8(ascii: "\\") ? changed[at] : UInt8(ascii: "a")
            guard changed != raw else { continue }
            let original = line([changed])
            let result = skim(original, candidates: [candidate(raw, interval: 64)], pieces: pieces)
            #expect(restored(result, raw: raw) == original, "seed \(seed)")
            let only = try! #require(result.repeats.first)
            #expect(
                !only.whole && !only.extended && only.span.count <= at && only.span.count > at - 3 * 64,
                "seed \(seed): \(only.span.count) of \(at)")
            #expect(result.bytes.count < original.count - only.span.count + 1)
        }
    }

    @Test func stringsShorterThanTheThresholdOrUnlikeAnyTextStayAsTheyAre() {
        let raw = rawText(600, seed: 3)
        let other = rawText(600, seed: 4)
        let original = line([other, Array("short".utf8)])
        let result = skim(original, candidates: [candidate(raw, interval: 64)], pieces: 13)
        #expect(result.repeats.isEmpty && result.bytes == original)
        let none = skim(line([raw]), candidates: [], pieces: 13)
        #expect(none.repeats.isEmpty && none.bytes == line([raw]))
    }

    @Test func aLineCutOffInsideARepeatStillRecordsItsSpan() {
        let raw = rawText(800, seed: 5)
        let original = Array(line([raw]).prefix(40 + 500))
        let result = skim(original, candidates: [candidate(raw, interval: 64)], pieces: 7)
        #expect(restored(result, raw: raw) == original)
        #expect(result.bytes.count < 200, "the matched prefix is not held: \(result.bytes.count) bytes kept")
    }

    @Test func twoTextsAreEachFoundInTheirOwnStrings() {
        let first = rawText(500, seed: 21)
        let second = rawText(700, seed: 22)
        let original = line([second, first])
        var secondCandidate = candidate(second, interval: 64)
        secondCandidate.source.outputIndex = 1
        let result = skim(original, candidates: [candidate(first, interval: 64), secondCandidate], pieces: 31)
        #expect(result.repeats.map(\.span.source.outputIndex) == [1, 0])
        var bytes = result.bytes
        for skimmed in result.repeats.reversed() {
            bytes.insert(contentsOf: skimmed.span.source.outputIndex == 1 ? second : first, at: skimmed.span.start)
        }
        #expect(bytes == original)
    }
}
