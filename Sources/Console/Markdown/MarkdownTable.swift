import Foundation

/// A Markdown table laid out for a terminal: columns as wide as their widest cell, or, when the table
/// is wider than the screen, the widest columns narrowed and their cells wrapped; alignment from the
/// delimiter row; box-drawing borders; the header in bold.
struct MarkdownTable: Sendable {
    enum Alignment: Sendable { case left, center, right }

    var header: [[StyledRun]]
    var alignments: [Alignment]
    var rows: [[[StyledRun]]]

    /// The table in `lines` (header, delimiter row, body), or nil when the second line is not a delimiter row.
    init?(_ lines: [[UInt8]], colors: Bool, hyperlinks: Bool) {
        // A tab in a cell is a space (the wrapper writes it as one; its width would count as none).
        let lines = lines.map { $0.contains(0x09) ? $0.map { $0 == 0x09 ? 0x20 : $0 } : $0 }
        guard lines.count >= 2,
            let alignments = Self.alignments(Self.cells(lines[1]).map { String(decoding: $0.bytes[$0.range], as: UTF8.self) })
        else { return nil }
        func parse(_ line: [UInt8]) -> [[StyledRun]] {
            Self.cells(line).map { cell in
                InlineMarkdown.runs(cell.bytes, cell.range, colors: colors, hyperlinks: hyperlinks).runs
            }
        }
        self.alignments = alignments
        self.header = parse(lines[0])
        self.rows = lines.dropFirst(2).map(parse)
    }

    /// A row's cells: split at `|` outside code spans and not escaped, the outer pipes dropped, each
    /// trimmed of spaces; each a range of the line (or, when it holds `\|`, of a copy with plain pipes).
    static func cells(_ line: [UInt8]) -> [(bytes: [UInt8], range: Range<Int>)] {
        var ranges: [Range<Int>] = []
        var escaped: [Int] = []
        var inCode = false
        var start = 0
        var i = 0
        while i < line.count {
            let byte = line[i]
            if byte == UInt8(ascii: "\\"), i + 1 < line.count, line[i + 1] == UInt8(ascii: "|") {
                escaped.append(i)
                i += 2
                continue
            }
            if byte == UInt8(ascii: "`") { inCode.toggle() }
            if byte == UInt8(ascii: "|"), !inCode {
                ranges.append(start..<i)
                start = i + 1
            }
            i += 1
        }
        ranges.append(start..<line.count)
        func blank(_ range: Range<Int>) -> Bool { line[range].allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        if let first = ranges.first, blank(first) { ranges.removeFirst() }
        if let last = ranges.last, blank(last) { ranges.removeLast() }
        return ranges.map { range in
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, line[lower] == 0x20 || line[lower] == 0x09 { lower += 1 }
            while upper > lower, line[upper - 1] == 0x20 || line[upper - 1] == 0x09 { upper -= 1 }
            guard escaped.contains(where: { range.contains($0) }) else { return (line, lower..<upper) }
            // `\|` is a pipe inside the cell.
            var copy: [UInt8] = []
            var j = lower
            while j < upper {
                if line[j] == UInt8(ascii: "\\"), j + 1 < upper, line[j + 1] == UInt8(ascii: "|") { j += 1 }
                copy.append(line[j])
                j += 1
            }
            return (copy, 0..<copy.count)
        }
    }

    static func alignments(_ cells: [String]) -> [Alignment]? {
        guard !cells.isEmpty else { return nil }
        var result: [Alignment] = []
        for cell in cells {
            guard cell.contains("-"), cell.allSatisfy({ $0 == "-" || $0 == ":" }) else { return nil }
            switch (cell.hasPrefix(":"), cell.hasSuffix(":")) {
            case (true, true): result.append(.center)
            case (false, true): result.append(.right)
            default: result.append(.left)
            }
        }
        return result
    }

    /// The table's lines, each ending in a newline, no wider than `width` where it can be.
    func render(width: Int, colors: Bool, hyperlinks: Bool, into out: inout [UInt8]) {
        let columns = max(header.count, alignments.count, rows.map { $0.count }.max() ?? 0)
        func cell(_ row: [[StyledRun]], _ column: Int) -> [StyledRun] { column < row.count ? row[column] : [] }
        var bold = header
        for index in bold.indices { bold[index] = bold[index].map { var run = $0; run.style.bold = true; return run } }
        let all = [bold] + rows
        // Natural widths: the widest line of each column's cells.
        var widths = (0..<columns).map { column in
            all.map { Self.naturalWidth(cell($0, column)) }.max() ?? 0
        }
        widths = widths.map { max($0, 1) }
        // The widest column narrowed, one column at a time, down to one character if that is what fits.
        let room = max(width - (3 * columns + 1), columns)
        while widths.reduce(0, +) > room, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 1 {
            widths[widest] -= 1
        }
        let border = TextStyle(dim: true)
        let bar = Array(border.apply("│", colors: colors).utf8)
        let dash = Array("─".utf8)
        func rule(_ left: String, _ middle: String, _ right: String) {
            if colors { out.append(contentsOf: StyleCodes.table[border.key]) }
            out += left
            for (index, width) in widths.enumerated() {
                if index > 0 { out += middle }
                for _ in 0..<(width + 2) { out.append(contentsOf: dash) }
            }
            out += right
            if colors { out.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D]) }
            out.append(0x0A)
        }
        rule("┌", "┬", "┐")
        for (index, row) in all.enumerated() {
            let wrapped = (0..<columns).map { Self.lines(cell(row, $0), width: widths[$0], colors: colors, hyperlinks: hyperlinks) }
            let height = wrapped.map { $0.count }.max() ?? 1
            for line in 0..<max(height, 1) {
                out.append(contentsOf: bar)
                for column in 0..<columns {
                    let content: (bytes: ArraySlice<UInt8>, width: Int) = line < wrapped[column].count ? wrapped[column][line] : ([], 0)
                    let gap = max(0, widths[column] - content.width)
                    let alignment = column < alignments.count ? alignments[column] : .left
                    let (before, after) = switch alignment {
                    case .left: (0, gap)
                    case .right: (gap, 0)
                    case .center: (gap / 2, gap - gap / 2)
                    }
                    out.append(contentsOf: repeatElement(0x20, count: before + 1))
                    out.append(contentsOf: content.bytes)
                    out.append(contentsOf: repeatElement(0x20, count: after + 1))
                    out.append(contentsOf: bar)
                }
                out.append(0x0A)
            }
            if index == 0 { rule("├", "┼", "┤") }
        }
        rule("└", "┴", "┘")
    }

    /// The width of a cell's widest line (`<br>` breaks lines).
    static func naturalWidth(_ runs: [StyledRun]) -> Int {
        if runs.count == 1, !runs[0].bytes.contains(0x0A) { return DisplayWidth.of(utf8: runs[0].bytes) }
        var widest = 0
        var current = 0
        for run in runs {
            for (index, line) in run.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                if index > 0 { widest = max(widest, current); current = 0 }
                current += DisplayWidth.of(utf8: line)
            }
        }
        return max(widest, current)
    }

    /// A cell's runs wrapped at `width`: its lines, styled, with their display widths.
    static func lines(_ runs: [StyledRun], width: Int, colors: Bool, hyperlinks: Bool) -> [(bytes: ArraySlice<UInt8>, width: Int)] {
        guard !runs.isEmpty else { return [([], 0)] }
        // One run that fits: its bytes, styled, as the wrapper would write them.
        if runs.count == 1, runs[0].link == nil, !runs[0].bytes.contains(where: { $0 == 0x0A || $0 == 0x09 || $0 >= 0x7F }) {
            let run = runs[0]
            var first = run.bytes.startIndex, last = run.bytes.endIndex
            while first < last, run.bytes[first] == 0x20 { first += 1 }
            while last > first, run.bytes[last - 1] == 0x20 { last -= 1 }
            let text = run.bytes[first..<last]
            // (A styled run only when it is one word: the wrapper styles each word apart.)
            if text.count <= width, !text.contains(where: { $0 < 0x20 }), run.style.isPlain || !text.contains(0x20) {
                guard colors, !run.style.isPlain, !text.isEmpty else { return [(text, text.count)] }
                var codes = StyleCodes()
                var out: [UInt8] = []
                codes.open(run.style, hyperlinks: false, into: &out)
                out.append(contentsOf: text)
                codes.close(run.style, hyperlinks: false, into: &out)
                return [(out[...], text.count)]
            }
        }
        var wrapper = StyledWrapper(width: width, colors: colors, hyperlinks: hyperlinks, minimum: 1)
        var out: [UInt8] = []
        wrapper.add(runs, into: &out)
        return out.split(separator: 0x0A, omittingEmptySubsequences: false).map { ($0, DisplayWidth.of(utf8: $0)) }
    }
}
