import Foundation

/// Fenced code blocks as Markdown writes them: a line of ``` or ~~~ (with an optional info string, `sh`)
/// opens a block, and the next line that starts with the same marker closes it; a fence may be indented
/// (inside a list item). The HTML extractor writes a `<pre>` the same way, so the library's text marks
/// code alike for both: the Markdown extractor reads no heading inside code, and an extractive answer
/// quotes code as code (`AnswerBuilder`).
struct CodeFence: Sendable, Hashable {
    /// The line that opened the block, less its indentation: "```sh".
    var line: String

    /// "```" or "~~~".
    var marker: Substring { line.prefix(3) }

    /// The block's language, from its info string ("sh"); nil when it names none.
    var language: String? {
        let info = line.drop { $0 == "`" || $0 == "~" }.trimmingCharacters(in: .whitespaces)
        return info.split(separator: " ").first.map(String.init)
    }

    /// The fence line `line` is, less its indentation; nil when it is no fence.
    static func fence(_ line: Substring) -> Substring? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") ? trimmed : nil
    }

    /// Reads one line with `open` the block open before it (nil outside code): a fence opens or closes
    /// the block. True when the line is a fence.
    static func read(_ line: Substring, open: inout CodeFence?) -> Bool {
        guard let fence = fence(line) else { return false }
        if let current = open {
            if fence.hasPrefix(current.marker) { open = nil }
        } else {
            open = CodeFence(line: String(fence.trimmingCharacters(in: .whitespaces)))
        }
        return true
    }

    /// The block open at the end of `text` (read line by line from `open`), nil when it ends outside code.
    /// An unfinished last line is not read: it may be the start of a fence.
    static func open(after text: Substring, from open: CodeFence? = nil) -> CodeFence? {
        var state = open
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if !text.hasSuffix("\n") { lines.removeLast() }
        for line in lines { _ = read(line, open: &state) }
        return state
    }

    /// A marker that no line of `lines` starts with, to fence them: ``` unless one does, then ~~~.
    static func marker(for lines: [String]) -> String {
        lines.contains { fence(Substring($0))?.hasPrefix("```") == true } ? "~~~" : "```"
    }
}
