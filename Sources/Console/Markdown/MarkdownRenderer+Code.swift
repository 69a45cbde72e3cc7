import Foundation

/// Fenced code: a header naming the language, each line highlighted as it completes, long lines cut at
/// the width with a visible continuation mark, and a closing rule.
extension MarkdownRenderer {
    mutating func openFence(indent: Int, marker: UInt8, count: Int, info: String, into out: inout [UInt8]) {
        let screenIndent = indent > 0 && !lists.isEmpty ? String(repeating: " ", count: lists.last?.hangingWidth ?? 0) : ""
        let language = LanguageSyntax.named(info)
        let name = info.split(separator: " ").first.map(String.init) ?? ""
        let header = name.isEmpty ? "───" : "─── " + name
        out += screenIndent + TextStyle(dim: true).apply(header, colors: options.colors, hyperlinks: false) + "\n"
        fence = Fence(indent: indent, marker: marker, count: count, screenIndent: screenIndent, highlighter: SyntaxHighlighter(language: language))
    }

    mutating func codeLine(_ line: [UInt8], into out: inout [UInt8]) {
        guard var open = fence else { return }
        // The closing fence: the same marker, at least as many, nothing after.
        var i = 0
        while i < line.count, line[i] == 0x20 { i += 1 }
        var n = 0
        while i + n < line.count, line[i + n] == open.marker { n += 1 }
        if n >= open.count, line[(i + n)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            closeFence(into: &out)
            return
        }
        let start = Self.offset(ofColumn: open.indent, in: line)
        var text = line.text(from: start)
        if line.contains(0x09) { text = text.replacingOccurrences(of: "\t", with: "    ") }
        let runs = open.highlighter.highlight(text)
        fence = open
        emitCode(runs, indent: open.screenIndent + "  ", into: &out)
    }

    mutating func closeFence(into out: inout [UInt8]) {
        let indent = fence?.screenIndent ?? ""
        fence = nil
        out += indent + TextStyle(dim: true).apply("───", colors: options.colors, hyperlinks: false) + "\n"
        afterBlank = false
        afterListText = false
    }

    /// One line of code after `indent`; what does not fit goes on as many lines as it needs, each
    /// starting with `↪` under the code.
    mutating func emitCode(_ runs: [StyledRun], indent: String, into out: inout [UInt8]) {
        let room = max(options.width - indent.count, 8)
        var column = 0
        out += indent
        // An ASCII line that fits: as it is.
        if runs.allSatisfy({ $0.text.utf8.allSatisfy { $0 < 0x7F } }), runs.reduce(0, { $0 + $1.text.utf8.count }) <= room {
            for run in runs { out += run.style.apply(run.text, colors: options.colors, hyperlinks: false) }
            out += "\n"
            return
        }
        let mark = TextStyle(dim: true).apply("↪ ", colors: options.colors, hyperlinks: false)
        for run in runs {
            var piece = ""
            for character in run.text {
                let width = DisplayWidth.of(character)
                if column + width > room {
                    out += run.style.apply(piece, colors: options.colors, hyperlinks: false) + "\n" + indent + mark
                    piece = ""
                    column = 2
                }
                piece.append(character)
                column += width
            }
            out += run.style.apply(piece, colors: options.colors, hyperlinks: false)
        }
        out += "\n"
    }
}
