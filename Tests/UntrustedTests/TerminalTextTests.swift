import TestSupport
import Testing
import Untrusted

/// The terminal cleaner: what a server sends cannot act on the terminal, and ordinary text is kept as it is.
@Suite("TerminalText")
struct TerminalTextTests {
    /// The bytes and scalars that must never reach a terminal from untrusted text.
    static func violation(_ cleaned: String) -> String? {
        let bytes = Array(cleaned.utf8)
        for (index, byte) in bytes.enumerated() {
            if byte == 0x1B { return "ESC at \(index)" }
            if byte == 0x0D { return "CR at \(index)" }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A { return "C0 \(byte) at \(index)" }
            if byte == 0x7F { return "DEL at \(index)" }
        }
        for scalar in cleaned.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) { return "C1 U+\(String(scalar.value, radix: 16))" }
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                return "bidi U+\(String(scalar.value, radix: 16))"
            }
        }
        return nil
    }

    @Test func escapeSequencesBellsAndCarriageReturnsBecomePictures() {
        #expect(TerminalText.clean("a\u{1B}[2Kb") == "a␛[2Kb")
        #expect(TerminalText.clean("ok\rfake") == "ok␍fake")
        #expect(TerminalText.clean("line\r\nnext") == "line\nnext")
        #expect(TerminalText.clean("end\r") == "end␍")
        #expect(TerminalText.clean("\u{1B}]52;c;eA==\u{07}") == "␛]52;c;eA==␇")
        #expect(TerminalText.clean("\u{9B}31m\u{9D}0;t\u{85}") == "\u{FFFD}31m\u{FFFD}0;t\u{FFFD}")
        #expect(TerminalText.clean("a\u{7F}b\u{0}c") == "a␡b␀c")
        #expect(TerminalText.clean("abc\u{202E}cba\u{2066}x") == "abc\u{FFFD}cba\u{FFFD}x")
    }

    @Test func ordinaryTextIsKeptExactly() {
        for text in [
            "", "plain", "tabs\tand\nlines\n", "é\u{0301} ß 日本語 👩\u{200D}💻 \u{1F1E9}\u{1F1EA}", "\"\u{0301}'",
            "U+2028\u{2028}",
        ] {
            #expect(TerminalText.clean(text) == text)
            #expect(TerminalText.isClean(text))
        }
    }

    @Test func interpolationKeepsLiteralsAndCleansValues() {
        let arguments = HostileServer.lyingArguments
        let prompt: TerminalText = "\u{1B}[1mRun\u{1B}[0m f(\(arguments))? [y/N] "
        #expect(prompt.text.hasPrefix("\u{1B}[1mRun\u{1B}[0m f({\"cmd\":\"rm -rf ~/important\""))
        #expect(prompt.text.contains("␍␛[2K"))
        let nested: TerminalText = "[\(prompt)]"
        #expect(nested.text == "[" + prompt.text + "]")
        let number = 42
        #expect(("n=\(number)" as TerminalText).text == "n=42")
        let missing: String? = nil
        #expect(("v=\(missing, default: "\u{1B}x")" as TerminalText).text == "v=␛x")
    }

    @Test func oneLineShowsLineFeedsTabsAndLongRunsOfSpaces() {
        #expect(TerminalText.cleanSingleLine("a\nb\tc") == "a␊b␉c")
        #expect(TerminalText.cleanSingleLine("x" + String(repeating: " ", count: 500) + "y") == "x␠×500y")
        #expect(TerminalText.cleanSingleLine("a        b") == "a        b")
        #expect(TerminalText.cleanSingleLine("r\r\nx\u{1B}") == "r␊x␛")
        var strings = HostileStrings(seed: 44)
        for _ in 0..<5_000 {
            let shown = TerminalText.cleanSingleLine(strings.next())
            #expect(Self.violation(shown) == nil && !shown.contains("\n") && !shown.contains("\t"))
        }
    }

    /// Random strings of the pieces that matter: nothing that acts on a terminal survives, and text without
    /// any of it comes back unchanged.
    @Test func noRandomStringLeavesAControlSequence() {
        var strings = HostileStrings(seed: 43)
        for _ in 0..<20_000 {
            let text = strings.next()
            let cleaned = TerminalText.clean(text)
            #expect(Self.violation(cleaned) == nil, "\(Array(text.unicodeScalars)) → \(Array(cleaned.unicodeScalars))")
            if Self.violation(text) == nil { #expect(cleaned == text) }
            #expect(TerminalText.clean(cleaned) == cleaned, "cleaning twice changes nothing")
        }
    }
}
