import TestSupport
import Testing

@testable import Markdown

/// The wrapper's fast ways (a run that fits written whole, a word placed straight from its run, a line's
/// unstyled words written together) against its general way (every word gathered, then placed): the same
/// bytes for random runs of words, spaces, tabs and `<br>` breaks, narrow and wide non-ASCII text, every
/// style and links, at widths from one column up, with colours and hyperlinks on and off, a line given in
/// one call or in several (as a streamed line is). And the renderer's byte output against its string one.
@Suite("Styled wrapper")
struct StyledWrapperTests {
    static let words = [
        "a", "the", "streaming", "renderer", "x", "1,234", "snake_case", "naïve", "café", "→", "≥", "日本語", "😀",
        "e\u{301}",
        "supercalifragilistic-and-then-some-more-than-a-line-holds",
    ]
    static let styles: [TextStyle] = [
        .plain, TextStyle(bold: true), TextStyle(italic: true), TextStyle(code: true),
        TextStyle(underline: true, color: .blue),
        TextStyle(strike: true), TextStyle(dim: true),
    ]

    static func runs(_ generator: inout SplitMix) -> StyledText {
        var styled = StyledText()
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            var text = ""
            for index in 0..<Int.random(in: 1...7, using: &generator) {
                let separator =
                    switch Int.random(in: 0..<12, using: &generator) {
                    case 0: "  "
                    case 1: "\t"
                    case 2: "\n"
                    case 3: ""
                    default: " "
                    }
                if index > 0 || Bool.random(using: &generator) { text += separator }
                text += words.randomElement(using: &generator)!
            }
            if Bool.random(using: &generator) { text += " " }
            styled.append(text, styles.randomElement(using: &generator)!)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                styled.runs[styled.runs.count - 1].link = Int32(styled.links.count)
                styled.links.append("https://example.com/\(Int.random(in: 0..<2, using: &generator))")
            }
        }
        return styled
    }

    /// The runs' texts, to show a failing case.
    static func pieces(_ text: StyledText) -> [String] {
        text.runs.map { text.bytes.text($0.range) }
    }

    static func render(_ calls: [StyledText], width: Int, colors: Bool, hyperlinks: Bool, fast: Bool) -> String {
        var wrapper = StyledWrapper(width: width, colors: colors, hyperlinks: hyperlinks, minimum: 1)
        wrapper.fastPaths = fast
        var out = RenderBuffer()
        wrapper.startLine(prefix: LinePrefix("• ", width: 2), hanging: .spaces(2), into: &out)
        for text in calls { wrapper.add(text, into: &out) }
        wrapper.endLine(into: &out)
        return out.string
    }

    @Test func theFastWaysWriteWhatTheGeneralWayWrites() {
        var generator = SplitMix(seed: 18)
        var differing = 0
        for index in 0..<4000 {
            let calls = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.runs(&generator) }
            let width = Int.random(in: 1...70, using: &generator)
            let colors = Bool.random(using: &generator)
            let hyperlinks = Bool.random(using: &generator)
            let fast = Self.render(calls, width: width, colors: colors, hyperlinks: hyperlinks, fast: true)
            let general = Self.render(calls, width: width, colors: colors, hyperlinks: hyperlinks, fast: false)
            if fast != general {
                differing += 1
                Issue.record(
                    "case \(index), width \(width), colours \(colors), hyperlinks \(hyperlinks): \(calls.map(Self.pieces))\nfast:    \(fast.debugDescription)\ngeneral: \(general.debugDescription)"
                )
            }
            if differing == 3 { break }
        }
    }

    /// The fast ways are taken at all (else the test above holds nothing): plain and styled runs that fit.
    @Test func theFastWaysAreTaken() {
        let runs = StyledText([
            ("plain words, then ", .plain), ("bold ones", TextStyle(bold: true)),
            (" and a long tail of more plain words that wraps", .plain),
        ])
        var wrapper = StyledWrapper(width: 30, colors: true, hyperlinks: false)
        var out = RenderBuffer()
        wrapper.add(runs, into: &out)
        #expect(
            out.string
                == "plain words, then \u{1B}[1mbold\u{1B}[0m \u{1B}[1mones\u{1B}[0m\nand a long tail of more plain\nwords that wraps"
        )
        #expect(
            Self.render([runs], width: 30, colors: true, hyperlinks: false, fast: true)
                == Self.render([runs], width: 30, colors: true, hyperlinks: false, fast: false))
    }

    /// `feed(_:into:)` and its kin append to what the buffer holds and write what the string calls return.
    @Test(arguments: MarkdownRendererTests.corpus)
    func theByteOutputIsTheStringOutput(name: String) throws {
        let text = try MarkdownRendererTests.source(name)
        let pieces = MarkdownRendererTests.chunks(text, seed: 7)
        var strings = MarkdownRenderer(options: .init(width: 60, colors: true, hyperlinks: true))
        var bytes = strings
        var expected = ""
        var out = Array("kept: ".utf8)
        for piece in pieces {
            expected += strings.feed(piece) + strings.settle()
            bytes.feed(piece, into: &out)
            bytes.settle(into: &out)
        }
        expected += strings.finish()
        bytes.finish(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "kept: " + expected)
    }
}
