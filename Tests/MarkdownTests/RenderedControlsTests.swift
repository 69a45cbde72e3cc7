import TestSupport
import Testing

@testable import Markdown

/// What a model sends is rendered without its control characters taking effect: escape sequences, C1
/// controls and bidirectional overrides, in prose, headings, tables and code (issue 43's rule, the same as
/// Untrusted's TerminalText).
@Suite("controls in rendered Markdown")
struct RenderedControlsTests {
    static let forbidden: [Unicode.Scalar] = [
        "\u{1B}", "\u{9B}", "\u{9D}", "\u{202E}", "\u{202D}", "\u{2066}", "\u{2069}", "\u{7}",
    ]

    @Test func noControlOrOverrideSurvivesRendering() {
        let attack = "a\u{202E}evil\u{202C} \u{2066}x\u{2069} \u{1B}]52;c;eA==\u{7} \u{9B}31m"
        for markdown in [
            "\(attack)\n", "# \(attack)\n", "| h |\n|---|\n| \(attack) |\n", "```\n\(attack)\n```\n", "- \(attack)\n",
        ] {
            let out = MarkdownRendererEdgeTests.whole(markdown, width: 60, colors: false)
            let bad = out.unicodeScalars.filter { Self.forbidden.contains($0) }
            #expect(bad.isEmpty, "\(markdown.debugDescription) → \(out.debugDescription)")
        }
        let plain = MarkdownRendererEdgeTests.whole("“quoted” — ok\n", width: 60)
        #expect(plain.contains("“quoted” — ok"), "typographic punctuation (0xE2 …) is kept")
    }

    @Test func randomHostileStringsLeaveNoControl() {
        var strings = HostileStrings(seed: 21)
        for _ in 0..<2_000 {
            let text = strings.next()
            let out = MarkdownRendererEdgeTests.whole(text + "\n", width: 50, colors: true)
            // The renderer's own styles are ESC [ ... m: anything else that starts with ESC is from the text.
            let bad = out.unicodeScalars.filter { Self.forbidden.dropFirst().contains($0) }
            #expect(bad.isEmpty, "\(Array(text.unicodeScalars)) → \(out.debugDescription)")
        }
    }
}
