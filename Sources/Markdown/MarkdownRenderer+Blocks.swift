import Foundation

/// What a line is: its kind, decided from its start and the lines before it.
extension MarkdownRenderer {
    enum LineKind {
        case blank
        /// `info`: where the info string is in the line.
        case fence(indent: Int, marker: UInt8, count: Int, info: Range<Int>)
        case tableRow
        case rule
        case indentedCode(start: Int)
        case text(TextLine)
    }

    /// A line of prose: where its text starts, what goes before it, and how it changes the open lists.
    struct TextLine: Sendable {
        var contentStart: Int
        var prefix = LinePrefix.none
        var hanging = LinePrefix.none
        var style = TextStyle.plain
        var list = ListChange.keep
    }

    enum ListChange: Sendable {
        case keep, clear
        /// A new item: the first `keeping` open items stay, this one goes after them.
        case item(ListLevel, keeping: Int)
    }

    /// An open list item: its marker's column in the source, and its hanging indent on screen.
    struct ListLevel: Sendable {
        var indent: Int
        var hangingWidth: Int
    }

    struct Fence: Sendable {
        var indent: Int
        var marker: UInt8
        var count: Int
        /// Where its lines start on screen, in spaces (inside a list item: the item's hanging indent).
        var screenIndent: Int
        var highlighter: SyntaxHighlighter
        /// Where code lines start: the screen indent and two spaces.
        var codeIndent: Int { screenIndent + 2 }

        /// A fence's opening (`rest` from its first non-space byte): three or more backticks or tildes, and
        /// where the info after them is (indices of `rest`; a backtick fence's info holds no backtick); nil
        /// for any other line.
        static func opening(_ rest: ArraySlice<UInt8>) -> (marker: UInt8, count: Int, info: Range<Int>)? {
            guard let first = rest.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") else { return nil }
            let count = rest.prefix { $0 == first }.count
            let after = rest.dropFirst(count)
            guard count >= 3, !(first == UInt8(ascii: "`") && after.contains(UInt8(ascii: "`"))) else { return nil }
            var lower = after.startIndex
            var upper = after.endIndex
            while lower < upper, after[lower] == 0x20 || after[lower] == 0x09 { lower += 1 }
            while upper > lower, after[upper - 1] == 0x20 || after[upper - 1] == 0x09 { upper -= 1 }
            return (first, count, lower..<upper)
        }

        /// Whether `line` closes a fence of `count` `marker`s: as many or more of them after spaces, then
        /// only spaces or tabs.
        static func closes(_ line: ArraySlice<UInt8>, marker: UInt8, count: Int) -> Bool {
            // (Asked of every line of code: indices, not the slices of drop and prefix.)
            var i = line.startIndex
            while i < line.endIndex, line[i] == 0x20 { i += 1 }
            let run = i
            while i < line.endIndex, line[i] == marker { i += 1 }
            guard i - run >= count else { return false }
            while i < line.endIndex {
                guard line[i] == 0x20 || line[i] == 0x09 else { return false }
                i += 1
            }
            return true
        }
    }

    func classify(_ line: [UInt8]) -> LineKind {
        var indent = 0
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 {
            indent += line[i] == 0x09 ? 4 - indent % 4 : 1
            i += 1
        }
        guard i < line.count else { return .blank }
        let first = line[i]
        let inList = !lists.isEmpty
        let shallow = indent <= 3 || inList
        // (The first byte is looked at before the line is: a slice of it costs a retain and a release.)
        if shallow, first == UInt8(ascii: "`") || first == UInt8(ascii: "~"), let opening = Fence.opening(line[i...]) {
            return .fence(indent: indent, marker: opening.marker, count: opening.count, info: opening.info)
        }
        if shallow, first == UInt8(ascii: "|") { return .tableRow }
        if indent <= 3, first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "_"),
            Self.isRule(line[i...])
        {
            return .rule
        }
        if indent >= 4, !inList, afterBlank || afterIndentedCode {
            return .indentedCode(start: min(line.count, Self.offset(ofColumn: 4, in: line)))
        }
        if indent <= 3, first == UInt8(ascii: "#") {
            var n = 0
            while i + n < line.count, line[i + n] == UInt8(ascii: "#") { n += 1 }
            if n <= 6, i + n == line.count || line[i + n] == 0x20 {
                return .text(heading(level: n, contentStart: min(line.count, i + n + 1)))
            }
        }
        if indent <= 3, first == UInt8(ascii: ">") { return .text(quote(line, from: i)) }
        if let item = listItem(line, at: i, indent: indent) { return .text(item) }
        return .text(paragraph(indent: indent, contentStart: i))
    }

    func heading(level: Int, contentStart: Int) -> TextLine {
        var line = headings[level - 1]
        line.contentStart = contentStart
        return line
    }

    /// The six heading levels' lines (their marks, dimmed, as the prefix), made once per renderer.
    static func headings(colors: Bool) -> [TextLine] {
        (1...6).map { level in
            let marks = String(repeating: "#", count: level) + " "
            var style = TextStyle(bold: true)
            if colors, level <= 2 { style.color = .magenta }
            let prefix = TextStyle(dim: true, color: colors ? .magenta : nil).apply(marks, colors: colors)
            return TextLine(
                contentStart: 0, prefix: LinePrefix(prefix, width: marks.count), hanging: .spaces(marks.count),
                style: style,
                list: .clear)
        }
    }

    /// `> text`, `>> text`: a bar per level.
    func quote(_ line: [UInt8], from start: Int) -> TextLine {
        var i = start
        var depth = 0
        while i < line.count, line[i] == UInt8(ascii: ">") {
            depth += 1
            i += 1
            if i < line.count, line[i] == 0x20 { i += 1 }
        }
        // At most a quarter of the width in bars: deeper quotes are drawn at that depth.
        let shown = min(depth, max(1, options.width / 4))
        let bar = String(repeating: "│ ", count: shown)
        let prefix = LinePrefix(TextStyle(dim: true).apply(bar, colors: options.colors), width: 2 * shown)
        return TextLine(
            contentStart: i, prefix: prefix, hanging: prefix, style: TextStyle(italic: options.colors), list: .clear)
    }

    /// `- x`, `* x`, `+ x`, `1. x`, `1) x`, with `[ ]` and `[x]` task boxes; nesting from the indent.
    func listItem(_ line: [UInt8], at start: Int, indent: Int) -> TextLine? {
        var i = start
        var ordinal: Range<Int>?
        let first = line[i]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            i += 1
        } else {
            while i < line.count, i - start < 9, SyntaxHighlighter.isDigit(line[i]) { i += 1 }
            guard i > start, i < line.count, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ")") else {
                return nil
            }
            ordinal = start..<(i + 1)
            i += 1
        }
        guard i == line.count || line[i] == 0x20 else { return nil }
        var contentStart = min(line.count, i + 1)
        var keeping = lists.count
        while keeping > 0, indent <= lists[keeping - 1].indent { keeping -= 1 }
        let level = keeping
        // Nested items indent by their parent's hanging indent, up to half the width (deeper ones line up there).
        let outer = min(keeping > 0 ? lists[keeping - 1].hangingWidth : 0, options.width / 2)
        var box = 0
        if contentStart + 3 <= line.count, line[contentStart] == UInt8(ascii: "["),
            line[contentStart + 2] == UInt8(ascii: "]"),
            contentStart + 3 == line.count || line[contentStart + 3] == 0x20
        {
            switch line[contentStart + 1] {
            case 0x20: box = 1
            case UInt8(ascii: "x"), UInt8(ascii: "X"): box = 2
            default: break
            }
            if box != 0 { contentStart = min(line.count, contentStart + 4) }
        }
        // The marker, a space and the box (one column, and a space): a bullet's are made once.
        let markerWidth = (ordinal?.count ?? 1) + 1
        let bytes =
            ordinal.map { Array(line[$0]) + Self.boxes[box] }
            ?? Self.bulletPrefixes[options.colors ? 1 : 0][level % 3][box]
        let prefixWidth = outer + markerWidth + (box == 0 ? 0 : 2)
        return TextLine(
            contentStart: contentStart, prefix: LinePrefix(spaces: outer, bytes: bytes, width: prefixWidth),
            hanging: .spaces(outer + markerWidth),
            list: .item(ListLevel(indent: indent, hangingWidth: outer + markerWidth), keeping: keeping))
    }

    /// After a marker: a space, then no box, an open box or a ticked one (each a column and a space).
    static let boxes: [[UInt8]] = [" ", " ☐ ", " ☑ "].map { Array($0.utf8) }
    /// A bullet's marker and box, by colour (off, on), nesting level and box.
    static let bulletPrefixes: [[[[UInt8]]]] = [false, true].map { colors in
        ["•", "◦", "▪"].map { bullet in
            let marker = colors ? TextStyle(color: .cyan).apply(bullet, colors: true) : bullet
            return boxes.map { Array(marker.utf8) + $0 }
        }
    }

    /// Prose: inside a list (indented, or straight after an item's text), the item's continuation.
    func paragraph(indent: Int, contentStart: Int) -> TextLine {
        guard !lists.isEmpty else { return TextLine(contentStart: contentStart) }
        var keeping = lists.count
        if indent == 0 {
            guard afterListText else { return TextLine(contentStart: contentStart, list: .clear) }
        } else {
            while keeping > 1, indent <= lists[keeping - 1].indent { keeping -= 1 }
        }
        let hanging = LinePrefix.spaces(lists[keeping - 1].hangingWidth)
        return TextLine(contentStart: contentStart, prefix: hanging, hanging: hanging, list: .keep)
    }

    /// Three or more of one of `-`, `*`, `_`, spaces between allowed, nothing else.
    static func isRule(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let first = rest.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "_")
        else {
            return false
        }
        var count = 0
        for byte in rest {
            if byte == first { count += 1 } else if byte != 0x20 && byte != 0x09 { return false }
        }
        return count >= 3
    }

    /// The byte offset where column `column` begins (tabs to multiples of four), past leading spaces only.
    static func offset(ofColumn column: Int, in line: [UInt8]) -> Int {
        var width = 0
        var i = 0
        while i < line.count, width < column, line[i] == 0x20 || line[i] == 0x09 {
            width += line[i] == 0x09 ? 4 - width % 4 : 1
            i += 1
        }
        return i
    }
}

extension MarkdownRenderer {
    /// Prints the table held so far; lines that turn out not to be a table (no delimiter row) as prose.
    mutating func flushTable(into out: inout RenderBuffer) {
        guard let lines = table else { return }
        table = nil
        if let laidOut = MarkdownTable(lines, colors: options.colors, hyperlinks: options.hyperlinks) {
            lists.removeAll()
            laidOut.render(width: options.width, colors: options.colors, hyperlinks: options.hyperlinks, into: &out)
        } else {
            for line in lines {
                let start = line.firstIndex { $0 != 0x20 } ?? 0
                begin(TextLine(contentStart: start), into: &out)
                add(line, start..<line.count, style: .plain, into: &out)
                wrapper.endLine(into: &out)
            }
        }
        afterBlank = false
        afterListText = false
    }
}
