import Foundation
import Testing

@testable import Markdown

/// Inputs a review found mishandled, each held to what it should render: carriage returns at a piece's
/// end, C1 controls, nested emphasis, narrow tables, deep nesting, long fence headers and tabs.
@Suite("Markdown rendering, edge cases")
struct MarkdownRendererEdgeTests {
    typealias Tests = MarkdownRendererTests

    /// Pieces fed in turn, settling where `"<settle>"` is (the console settles once per network read).
    static func stream(_ pieces: [String], width: Int = 40, colors: Bool = false) -> String {
        var renderer = MarkdownRenderer(options: .init(width: width, colors: colors, hyperlinks: false))
        var out = ""
        for piece in pieces { out += piece == "<settle>" ? renderer.settle() : renderer.feed(piece) }
        return out + renderer.finish()
    }

    static func whole(_ text: String, width: Int = 40, colors: Bool = false) -> String {
        stream([text], width: width, colors: colors)
    }

    static func widest(_ out: String) -> Int {
        out.split(separator: "\n").map { DisplayWidth.of($0) }.max() ?? 0
    }

    @Test(arguments: ["- - -", "--- ", "* * *"])
    func aCarriageReturnAtAPiecesEndDoesNotSettleARuleAsAnItem(rule: String) {
        let chunked = Self.stream([rule + "\r", "<settle>", "\nafter\n"])
        #expect(chunked == Self.whole(rule + "\r\nafter\n"), "\(chunked.debugDescription)")
        #expect(chunked.hasPrefix("───"), "\(chunked.debugDescription)")
    }

    @Test func anEmptyPieceDecidesNothing() {
        #expect(Self.stream(["a\r", "", "\nb"]) == "a\nb\n")
        #expect(Self.stream(["a\r", "", "<settle>", "b"]) == "a␍b\n")
    }

    @Test func aCarriageReturnAtTheEndNeverReachesTheTerminal() {
        for text in ["|a|b|\n|-|-|\n|c|d\r", "text\r", "```\ncode\r"] {
            let out = Self.whole(text)
            #expect(!out.contains("\r"), "\(text.debugDescription) gave \(out.debugDescription)")
        }
    }

    @Test func c1ControlsAreReplaced() {
        let out = Self.whole("a\u{9B}31mred and [t](http://x\u{9C}/y)\n", colors: true)
        #expect(!out.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(out.debugDescription)")
        #expect(out.contains("a\u{FFFD}31mred"), "\(out.debugDescription)")
    }

    @Test func emphasisNests() {
        let out = Self.whole("*Note: this is **important** here*\n", colors: true)
        #expect(out.contains("\u{1B}[1;3mimportant\u{1B}[0m") && !out.contains("*"), "\(out.debugDescription)")
        #expect(Self.whole("_a __b__ c_\n") == "a b c\n")
        #expect(Self.whole("*a *b* c*\n") == "a b c\n")
        #expect(Self.whole("**a*b**\n") == "a*b\n", "a marker between letters stays inside")
        #expect(Self.whole("*a *b c*\n") == "*a b c\n", "the inner emphasis takes the closer")
    }

    /// An emphasis closed only until an inner one finds its closer further on is not shown early.
    @Test func anEmphasisThatMayCloseLaterIsHeldBackWhileStreaming() {
        let text = "*a **b* and then** c and more words to stream past the width of the line\n"
        let whole = Self.whole(text, colors: true)
        for seed in 1...30 {
            let pieces = Tests.chunks(text, seed: UInt64(seed)).flatMap { [$0, "<settle>"] }
            #expect(Self.stream(pieces, colors: true) == whole, "seed \(seed)")
        }
    }

    @Test func aTableNarrowsItsColumnsToFit() {
        let out = Self.whole("| aa | bb | cc | dd |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n", width: 20)
        #expect(Self.widest(out) <= 20, "\(out)")
        let eight = Self.whole("|a1|a2|a3|a4|a5|a6|a7|a8|\n|-|-|-|-|-|-|-|-|\n|bb|bb|bb|bb|bb|bb|bb|bb|\n", width: 40)
        #expect(Self.widest(eight) <= 40, "\(eight)")
    }

    @Test func deepListsAndQuotesStayWithinTheWidth() {
        let list =
            (0..<16).map { String(repeating: "  ", count: $0) + "- item at level \($0) with words" }.joined(
                separator: "\n") + "\n"
        #expect(Self.widest(Self.whole(list, width: 30)) <= 30)
        #expect(Self.widest(Self.whole(String(repeating: ">", count: 24) + " some words here\n", width: 40)) <= 40)
        let code =
            (0..<12).map { String(repeating: "  ", count: $0) + "- level \($0)" }.joined(separator: "\n")
            + "\n" + String(repeating: "  ", count: 12) + "```\n" + String(repeating: "  ", count: 12)
            + "let x = 1\n```\n"
        #expect(Self.widest(Self.whole(code, width: 20)) <= 20, "\(Self.whole(code, width: 20))")
    }

    @Test func aFenceHeaderIsCutAndATabEndsItsLanguage() {
        let long = Self.whole("```a-very-long-info-string-here-and-more\nx\n```\n", width: 20)
        #expect(Self.widest(long) <= 20, "\(long)")
        let tab = Self.whole("~~~py\tx\nprint(1)\n~~~\n", colors: true)
        #expect(
            !tab.contains("\t") && tab.contains("─── py\u{1B}[0m\n") && tab.contains("\u{1B}[33m1\u{1B}[0m"),
            "\(tab.debugDescription)")
    }

    @Test func tabsInTableCellsAndCodeAreSpaces() {
        let table = Self.whole("|a\tb|c|\n|-|-|\n|x|y|\n")
        #expect(table.contains("│ a b │ c │"), "\(table)")
        let code = Self.whole("```\n\t\u{FE0F}x\n```\n")
        #expect(!code.contains("\t"), "\(code.debugDescription)")
    }

    /// A character cluster across a space or a style's edge (` \u{FE0F}`, `**👍**🏽`) is wider to the wrapper,
    /// which counts each side, than to the cell's natural width: the row still lines up with the others.
    @Test(arguments: [" \u{FE0F}", "**👍**🏽", " 🏽"])
    func aClusterAcrossASpaceOrAStyleKeepsTheTableAligned(joint: String) {
        for colors in [false, true] {
            let table = Self.whole(
                "| h |\n|---|\n| a\(joint) |\n| wider cell |\n| a\(joint)b |\n", width: 80, colors: colors)
            let widths = Set(table.split(separator: "\n").map { DisplayWidth.of($0) })
            #expect(widths.count == 1, "\(table)")
        }
    }

    /// A combining mark makes one character of the byte before it: `<mailto:\u{301}x>` is no autolink and
    /// ```` ```swift \u{301} ```` names no language, as the characters say.
    @Test func aCombiningMarkAfterADelimiterChangesNothingItShouldNot() {
        #expect(Self.whole("<mailto:\u{301}x>").contains("<mailto"))
        let code = Self.whole("```swift \u{301}\nlet x = 1\n```\n", colors: true)
        #expect(!code.contains("\u{1B}[35mlet"), "\(code.debugDescription)")
        #expect(Self.whole("```swift\nlet x = 1\n```\n", colors: true).contains("\u{1B}[35mlet"))
    }

    /// `\|` is a pipe inside a cell, a pipe in a code span splits nothing, `\\|` is an escaped backslash before
    /// one, and a cell's copy without its escapes parses as the cell did (held to the output of the build
    /// before cells became ranges of one buffer, escape codes taken out).
    @Test func escapedPipesAndCodeSpansInCells() {
        let source = """
            | a \\| b | `c | d` | _e_ \\| f |
            |---|:-:|--:|
            | x\\|y | \\\\| z | w \\| _v_ |
            |\ttab\t| **b** \\| c | [l](http://x.y) \\| <br> |
            | 漢字 \\| 🎉 | `p \\| q` | ok |

            """
        let rendered = Self.whole(source, width: 100, colors: true).replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(
            rendered == """
                ┌───────────┬───────┬───────────────────┐
                │ a | b     │ c | d │             e | f │
                ├───────────┼───────┼───────────────────┤
                │ x|y       │  | z  │             w | v │
                │ tab       │ b | c │  l (http://x.y) | │
                │           │       │                   │
                │ 漢字 | 🎉 │ p | q │                ok │
                └───────────┴───────┴───────────────────┘

                """, "\(rendered)")
    }

    /// `<br>` in any case and spacing breaks the line and nothing else that looks like it does; an autolink
    /// needs `://` as three characters (held to the build before these were read from bytes).
    @Test func breaksAndAutolinks() {
        let breaks = Self.whole("a<BR />b <br/>c < b r >d <brr>e <b>f <br//>g\n", width: 100)
        #expect(breaks == "a\nb\nc < b r >d <brr>e <b>f <br//>g\n", "\(breaks.debugDescription)")
        let links = Self.whole(
            "<https://x.y/z> and <https:\u{301}//x.y> and <mailto:a@b.c> and <http://a b>\n", width: 100, colors: true)
        #expect(
            links
                == "\u{1B}[4;34mhttps://x.y/z\u{1B}[0m and <https:\u{301}//x.y> and \u{1B}[4;34mmailto:a@b.c\u{1B}[0m and <http://a b>\n",
            "\(links.debugDescription)")
    }

    /// A review found these three changed by the faster renderer; each is held to the output before it: a joiner
    /// after `://` or a space decides an autolink as Foundation's search does, two fences whose languages are
    /// the same string but not the same bytes each show their own bytes, and a width of `Int.max` (COLUMNS may
    /// say so) lays text out without overflowing.
    @Test func whatTheReviewOfTheFasterRendererFound() {
        #expect(Self.whole("<a://\u{200D}x>\n") == "a://\u{200D}x\n")
        #expect(Self.whole("<http://a \u{200D}b>\n") == "<http://a \u{200D}b>\n")
        let fences = Self.whole("```é\nx\n```\n```e\u{301}\ny\n```\n")
        #expect(
            Array(fences.utf8).split(separator: 0x0A).map { Array($0) }.contains(Array("─── e\u{301}".utf8)),
            "\(fences.debugDescription)")
        #expect(Self.whole("**b** c\n", width: Int.max) == "b c\n")
        #expect(
            Self.whole("plain words that would wrap somewhere\n", width: Int.max, colors: true)
                == "plain words that would wrap somewhere\n")
    }

    /// A link whose text is its URL shows no URL after it: decided from the bytes when they are equal, or
    /// when both are ASCII, and as strings otherwise (the Kelvin sign is `K` to `==`, `é` is `e` and U+0301).
    @Test func aLinkWhoseTextIsItsTargetShowsItOnce() {
        #expect(
            Self.whole("[a.b/c](a.b/c) [a.b](a.c) [x](xy) [xy](x)\n", width: 100) == "a.b/c a.b (a.c) x (xy) xy (x)\n")
        #expect(
            Self.whole("[\u{212A}](K) [\u{E9}](e\u{301}) [**b**c](bc) [\u{212A}](k)\n", width: 100)
                == "\u{212A} \u{E9} bc \u{212A} (k)\n")
        let pieces = StyledText([("ab", .plain), ("\u{E9}", TextStyle(bold: true))])
        #expect(pieces.text(0..<2, equals: "abe\u{301}"))
        #expect(!pieces.text(0..<2, equals: "abe"))
        #expect(!pieces.text(0..<1, equals: "abc"))
        #expect(pieces.text(0..<0, equals: ""))
    }

    /// A width below zero (no console passes one; a library caller might) renders as a width of zero does.
    @Test func aNegativeWidthRendersAsNone() {
        let text = "# T\n\n- a *b*\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```swift\nlet x = 1\n```\n> q\n"
        #expect(Self.whole(text, width: -2, colors: true) == Self.whole(text, width: 0, colors: true))
    }
}
