import TestSupport
import Testing

@testable import Markdown

/// Token-sized deltas' short way (a piece that only joins the unfinished line) held to the general way:
/// its scan to a byte-by-byte reading over every byte value at every position, and the renderer's bytes,
/// with it and without it, over the test corpus and text full of controls, in random deltas.
@Suite("Token-sized deltas")
struct DeltaTests {
    typealias Tests = MarkdownRendererTests

    /// What `quietScan` must say, one byte at a time: no line ends, nothing `visibleControls` replaces.
    static func naiveQuiet(_ bytes: [UInt8]) -> (quiet: Bool, space: Bool) {
        let quiet = !bytes.contains(0x0A) && !bytes.contains(0x0D) && MarkdownRenderer.visibleControls(bytes) == nil
        return (quiet, quiet && bytes.contains(0x20))
    }

    @Test func quietScanSaysWhatTheByteByByteReadingSays() {
        for value in UInt8.min...UInt8.max {
            let cases = ByteScanTests.cases(value)
            for bytes in cases + cases.map({ [0xC2] + $0 }) + cases.map({ [0xE2, 0x80] + $0 }) {
                let found = bytes.withUnsafeBufferPointer { MarkdownRenderer.quietScan($0) }
                let expected = Self.naiveQuiet(bytes)
                #expect(found.quiet == expected.quiet, "byte \(value) in \(bytes)")
                if found.quiet { #expect(found.space == expected.space, "byte \(value) in \(bytes)") }
            }
        }
        var generator = SplitMix(seed: 50)
        let alphabet: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0xC2, 0x80, 0x9B, 0xE2, 0x81, 0xA6, 0xAA, 0x61]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : 0x61
            }
            let found = bytes.withUnsafeBufferPointer { MarkdownRenderer.quietScan($0) }
            let expected = Self.naiveQuiet(bytes)
            #expect(found.quiet == expected.quiet, "\(bytes)")
            if found.quiet { #expect(found.space == expected.space, "\(bytes)") }
        }
    }

    /// `text` in deltas of 1 to 24 bytes (moved on to a scalar's end, as the benchmark cuts), the unfinished
    /// line settled every `every` deltas, with the short way on or off; the bytes each call wrote (so that
    /// what is shown when is compared too, not only the whole).
    static func stream(_ text: String, seed: UInt64, every: Int, quiet: Bool, width: Int = 60) -> [[UInt8]] {
        var generator = SplitMix(seed: seed)
        let bytes = Array(text.utf8)
        var renderer = MarkdownRenderer(options: .init(width: width, colors: true, hyperlinks: seed % 2 == 0))
        renderer.quietPieces = quiet
        var calls: [[UInt8]] = []
        var out: [UInt8] = []
        var start = 0
        var count = 0
        while start < bytes.count {
            var end = min(start + Int.random(in: 1...24, using: &generator), bytes.count)
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            renderer.feed(String(decoding: bytes[start..<end], as: UTF8.self), into: &out)
            calls.append(out)
            out.removeAll()
            count += 1
            if count % every == 0 {
                renderer.settle(into: &out)
                calls.append(out)
                out.removeAll()
            }
            start = end
        }
        renderer.finish(into: &out)
        calls.append(out)
        return calls
    }

    static let controls =
        "a\u{1B}[31mred\u{7}\u{9B}1m and\r more \r\nwords\u{202E}evil\u{2066} \u{85}x\t|a|b|\n|-|-|\n|\u{1B}|\u{9C}|\n\n"
        + "- item with **bold \u{1B} text** and `code\r` \u{E9}\u{301} → ≥ words to wrap past the width of it\r\n"

    @Test(arguments: Tests.corpus + ["controls"])
    func theShortWayWritesWhatTheGeneralWayWrites(name: String) throws {
        let text = name == "controls" ? String(repeating: Self.controls, count: 8) : try Tests.source(name)
        for seed in UInt64(1)...12 {
            let every = [1, 3, 8][Int(seed % 3)]
            let short = Self.stream(text, seed: seed, every: every, quiet: true)
            let general = Self.stream(text, seed: seed, every: every, quiet: false)
            #expect(short == general, "\(name), seed \(seed), settled every \(every)")
        }
    }
}
