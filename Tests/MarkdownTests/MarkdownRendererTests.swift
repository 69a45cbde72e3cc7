import Foundation
import TestSupport
import Testing

@testable import Markdown

/// The streaming Markdown renderer over a corpus of answers: the output is the same whether the text
/// comes in one piece, a byte at a time or in random chunks; `NO_COLOR` leaves no escape code; and each
/// construct renders as it should, checked against golden files (`OPENRESPONSES_UPDATE_GOLDEN=1`
/// rewrites them).
@Suite("Markdown rendering")
struct MarkdownRendererTests {
    static let corpus = ["constructs", "languages", "edges"]
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/markdown")

    static func source(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent("\(name).md"), encoding: .utf8)
    }

    static func render(_ pieces: [String], width: Int = 60, colors: Bool = true, hyperlinks: Bool = false) -> String {
        var renderer = MarkdownRenderer(options: .init(width: width, colors: colors, hyperlinks: hyperlinks))
        var out = ""
        // Each piece is settled, as the console settles each network read: the most streaming there can be.
        for piece in pieces { out += renderer.feed(piece) + renderer.settle() }
        return out + renderer.finish()
    }

    /// `text` cut at random points (UTF-8 boundaries of characters, as the network's deltas are), seeded.
    static func chunks(_ text: String, seed: UInt64) -> [String] {
        var generator = SplitMix(seed: seed)
        var pieces: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if Int.random(in: 0..<7, using: &generator) == 0 {
                pieces.append(current)
                current = ""
            }
        }
        pieces.append(current)
        return pieces
    }

    @Test(arguments: corpus, [true, false])
    func chunkingDoesNotChangeTheOutput(name: String, colors: Bool) throws {
        let text = try Self.source(name)
        let whole = Self.render([text], colors: colors)
        let bytes = Self.render(text.map { String($0) }, colors: colors)
        #expect(bytes == whole, "one character at a time differs from one piece")
        for seed in 1...20 {
            let chunked = Self.render(Self.chunks(text, seed: UInt64(seed)), colors: colors)
            #expect(chunked == whole, "chunks with seed \(seed) differ")
            if chunked != whole { break }
        }
        for width in [20, 33, 80, 200] {
            #expect(
                Self.render(text.map { String($0) }, width: width, colors: colors)
                    == Self.render([text], width: width, colors: colors), "width \(width)")
        }
    }

    @Test(arguments: corpus)
    func withoutColourNoEscapeCodeAppears(name: String) throws {
        let out = Self.render([try Self.source(name)], colors: false)
        #expect(!out.contains("\u{1B}"), "\(out)")
    }

    @Test(arguments: corpus, [false, true])
    func matchesItsGoldenFile(name: String, colors: Bool) throws {
        let out = Self.render([try Self.source(name)], width: 60, colors: colors, hyperlinks: colors)
        let golden = Self.directory.appendingPathComponent("\(name).\(colors ? "ansi" : "plain").golden")
        if ProcessInfo.processInfo.environment["OPENRESPONSES_UPDATE_GOLDEN"] == "1" {
            try out.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(
            out == expected,
            "\(name) differs from \(golden.lastPathComponent); OPENRESPONSES_UPDATE_GOLDEN=1 rewrites it")
    }

    /// Control characters from the model (an escape sequence, a bell, a bare carriage return) are shown as
    /// their pictures, never sent to the terminal, whatever the pieces they come in.
    @Test func controlCharactersAreShownNotSent() {
        let text = "clear \u{1B}[2J now \u{07} and\rback\r\nnext\n```\ncode \u{1B}]52;c;eA==\u{07}\n```\n"
        let whole = Self.render([text], colors: false)
        #expect(!whole.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(whole.debugDescription)")
        #expect(
            whole.contains("␛[2J") && whole.contains("␇") && whole.contains("and␍back")
                && whole.contains("␛]52;c;eA==␇"), "\(whole)")
        #expect(whole.contains("back\nnext"), "CR LF is a line ending")
        #expect(Self.render(text.map { String($0) }, colors: false) == whole)
        #expect(
            Self.render(["and\r", "\nnext\n"], colors: false) == "and\nnext\n",
            "a CR at a piece's end waits for the next")
        #expect(Self.render(["and\r", "back\n"], colors: false) == "and␍back\n")
    }

    @Test func codeBlocksForCopyFollowTheFences() {
        let blocks = CodeBlocks.of("text\r\n```swift\r\nlet a = 1\r\n```\t\r\n~~~\nraw\n")
        #expect(
            blocks == [
                CodeBlocks.Block(language: "swift", code: "let a = 1"),
                CodeBlocks.Block(language: "", code: "raw\n", unclosedFence: "~~~"),
            ])
        #expect(CodeBlocks.closingFences("cut off:\n```sh\necho") == "cut off:\n```sh\necho\n```")
        #expect(CodeBlocks.closingFences("done\n```\nx\n```") == "done\n```\nx\n```")
    }

    @Test func everyLineFitsTheWidth() throws {
        for name in Self.corpus {
            for width in [24, 40, 60] {
                let out = Self.render([try Self.source(name)], width: width, colors: true)
                for line in out.split(separator: "\n") {
                    #expect(DisplayWidth.of(line) <= width, "\(name) at \(width): \(line)")
                }
            }
        }
    }
}
