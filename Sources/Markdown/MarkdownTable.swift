import Foundation

/// A Markdown table laid out for a terminal: columns as wide as their widest cell, or, when the table
/// is wider than the screen, the widest columns narrowed and their cells wrapped; alignment from the
/// delimiter row; box-drawing borders; the header in bold.
struct MarkdownTable: Sendable {
    enum Alignment: Sendable { case left, center, right }

    var alignments: [Alignment]
    /// Every cell's runs, in one text over the table's lines: cell `c`'s runs are
    /// `cellRunStarts[c]..<cellRunStarts[c + 1]`. Row `r`'s cells are `rowStarts[r]..<rowStarts[r + 1]`, the
    /// header's first; apart from the runs (so that laying out reads widths without touching them), each
    /// cell's natural width (its widest line's) and whether it holds a `<br>`.
    var text = StyledText()
    var cellRunStarts: [Int] = [0]
    var cellWidths: [Int] = []
    var cellBreaks: [Bool] = []
    /// Every run of the cell is printable ASCII: the wrapper's column count is its display width.
    var cellASCII: [Bool] = []
    var rowStarts: [Int] = [0]
    let colors: Bool
    let hyperlinks: Bool

    /// The table in `lines` (header, delimiter row, body), or nil when the second line is not a delimiter row.
    init?(_ lines: [[UInt8]], colors: Bool, hyperlinks: Bool) {
        guard lines.count >= 2 else { return nil }
        var delimiter = lines[1]
        guard let alignments = Self.alignments(Self.cells(&delimiter, 0..<delimiter.count).map { delimiter[$0] }) else {
            return nil
        }
        self.alignments = alignments
        self.colors = colors
        self.hyperlinks = hyperlinks
        // The lines one after another, each row's cells as ranges of them.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(lines.reduce(0) { $0 + $1.count })
        var cells: [Range<Int>] = []
        cells.reserveCapacity(lines.count * alignments.count)
        rowStarts.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() where index != 1 {
            let start = buffer.count
            // A tab in a cell is a space (the wrapper writes it as one; its width would count as none).
            if line.contains(0x09) {
                buffer.append(contentsOf: line.map { $0 == 0x09 ? 0x20 : $0 })
            } else {
                buffer.append(contentsOf: line)
            }
            Self.cells(&buffer, start..<buffer.count, into: &cells)
            rowStarts.append(cells.count)
        }
        var parser = InlineMarkdown(buffer, colors: colors, hyperlinks: hyperlinks)
        parser.text.runs.reserveCapacity(cells.count + cells.count / 2)
        cellRunStarts.reserveCapacity(cells.count + 1)
        cellWidths.reserveCapacity(cells.count)
        cellBreaks.reserveCapacity(cells.count)
        cellASCII.reserveCapacity(cells.count)
        for (index, cell) in cells.enumerated() {
            parser.startPiece()
            // The header in bold.
            parser.parse(cell, style: index < rowStarts[1] ? TextStyle(bold: true) : .plain)
            let runs = cellRunStarts[index]..<parser.text.runs.count
            cellRunStarts.append(runs.upperBound)
            // Printable ASCII (most cells): its width is its length, and it has no break (and the wrapper's
            // column count is its display width when a row is laid out).
            let ascii = parser.text.bytes.withUnsafeBufferPointer { bytes in
                runs.allSatisfy {
                    DisplayWidth.printableASCIICount(UnsafeBufferPointer(rebasing: bytes[parser.text.runs[$0].range]))
                        != nil
                }
            }
            cellASCII.append(ascii)
            if ascii {
                cellWidths.append(runs.reduce(0) { $0 + parser.text.runs[$1].range.count })
                cellBreaks.append(false)
            } else {
                cellWidths.append(Self.naturalWidth(parser.text, runs))
                cellBreaks.append(runs.contains { parser.text.bytes[parser.text.runs[$0].range].contains(0x0A) })
            }
        }
        text = parser.text
    }

    var rowCount: Int { rowStarts.count - 1 }

    /// The table's lines, each ending in a newline, no wider than `width` where it can be.
    func render(width: Int, colors: Bool, hyperlinks: Bool, into out: inout RenderBuffer) {
        var columns = alignments.count
        for row in 0..<rowCount { columns = max(columns, rowStarts[row + 1] - rowStarts[row]) }
        // Natural widths: the widest line of each column's cells.
        var widths = Array(repeating: 1, count: columns)
        for row in 0..<rowCount {
            for (column, index) in (rowStarts[row]..<rowStarts[row + 1]).enumerated() {
                widths[column] = max(widths[column], cellWidths[index])
            }
        }
        // The widest column narrowed, one column at a time, down to one character if that is what fits.
        let room = max(width - (3 * columns + 1), columns)
        while widths.reduce(0, +) > room, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[widest] > 1
        {
            widths[widest] -= 1
        }
        let bar = colors ? Self.dimBar : Self.bar
        Self.rule(Self.topCorners, widths, colors: colors, into: &out)
        // One wrapper lays out every cell (a cell that fits its column is one line: no break is needed).
        var wrapper = StyledWrapper(width: Int.max / 4, colors: colors, hyperlinks: hyperlinks, minimum: 1)
        var scratch = RenderBuffer()
        var cellLines: [Range<Int>] = []
        var firstLine: [Int] = []
        var cellColumns: [Int] = []
        for row in 0..<rowCount {
            let first = rowStarts[row]
            let count = rowStarts[row + 1] - first
            // A row whose cells all show on one line in their columns (by the wrapper's own count, the one
            // it breaks by): written from the cells as laid out on one line, each padded by its display width.
            var fitted = false
            if (0..<count).allSatisfy({ !cellBreaks[first + $0] && cellWidths[first + $0] <= widths[$0] }) {
                wrapper.reset(width: Int.max / 4, minimum: 1)
                scratch.removeAll()
                cellLines.removeAll(keepingCapacity: true)
                cellColumns.removeAll(keepingCapacity: true)
                fitted = true
                for column in 0..<count {
                    let start = scratch.count
                    wrapper.startLine(prefix: .none, hanging: .none, into: &scratch)
                    wrapper.add(
                        text, runs: cellRunStarts[first + column]..<cellRunStarts[first + column + 1], into: &scratch)
                    cellLines.append(start..<scratch.count)
                    cellColumns.append(wrapper.column)
                    if wrapper.column > widths[column] {
                        fitted = false
                        break
                    }
                }
                if fitted {
                    out.append(contentsOf: bar)
                    scratch.withUnsafeBufferPointer { bytes in
                        for column in 0..<columns {
                            guard column < count else {
                                pad(
                                    UnsafeBufferPointer(start: nil, count: 0), width: 0, column: column, widths, bar,
                                    into: &out)
                                continue
                            }
                            let content = UnsafeBufferPointer(rebasing: bytes[cellLines[column]])
                            // Printable ASCII: its width is the wrapper's count; anything else measured as shown.
                            pad(
                                content,
                                width: cellASCII[first + column] ? cellColumns[column] : DisplayWidth.of(utf8: content),
                                column: column, widths, bar, into: &out)
                        }
                    }
                    out.append(0x0A)
                }
            }
            if !fitted {
                // Each cell wrapped to its column: its lines as ranges of `scratch`, column after column.
                scratch.removeAll()
                cellLines.removeAll(keepingCapacity: true)
                firstLine.removeAll(keepingCapacity: true)
                for column in 0..<columns {
                    firstLine.append(cellLines.count)
                    let start = scratch.count
                    if column < count, cellRunStarts[first + column] < cellRunStarts[first + column + 1] {
                        wrapper.reset(width: widths[column], minimum: 1)
                        wrapper.add(
                            text, runs: cellRunStarts[first + column]..<cellRunStarts[first + column + 1],
                            into: &scratch)
                    }
                    // The cell's lines: up to each newline the wrapper wrote.
                    scratch.withUnsafeBufferPointer { bytes in
                        var lineStart = start
                        while lineStart < bytes.count, let base = bytes.baseAddress,
                            let found = memchr(base + lineStart, 0x0A, bytes.count - lineStart)
                        {
                            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                            cellLines.append(lineStart..<newline)
                            lineStart = newline + 1
                        }
                        cellLines.append(lineStart..<bytes.count)
                    }
                }
                firstLine.append(cellLines.count)
                var height = 1
                for column in 0..<columns { height = max(height, firstLine[column + 1] - firstLine[column]) }
                scratch.withUnsafeBufferPointer { bytes in
                    for line in 0..<height {
                        out.append(contentsOf: bar)
                        for column in 0..<columns {
                            let index = firstLine[column] + line
                            let content =
                                index < firstLine[column + 1]
                                ? UnsafeBufferPointer(rebasing: bytes[cellLines[index]])
                                : UnsafeBufferPointer(start: nil, count: 0)
                            pad(content, width: DisplayWidth.of(utf8: content), column: column, widths, bar, into: &out)
                        }
                        out.append(0x0A)
                    }
                }
            }
            if row == 0 { Self.rule(Self.middleCorners, widths, colors: colors, into: &out) }
        }
        Self.rule(Self.bottomCorners, widths, colors: colors, into: &out)
    }

    /// A rule of `corners` (left, middle, right: three bytes each) over columns `widths` wide.
    static func rule(_ corners: [UInt8], _ widths: [Int], colors: Bool, into out: inout RenderBuffer) {
        if colors { StyleCodes.append(key: TextStyle(dim: true).key, into: &out) }
        out.append(contentsOf: corners[0..<3])
        for (index, width) in widths.enumerated() {
            if index > 0 { out.append(contentsOf: corners[3..<6]) }
            // The dashes, taken from a line of them (three bytes each).
            var dashes = width + 2
            while dashes > 0 {
                let taken = min(dashes, Self.dashes.count / 3)
                out.append(contentsOf: Self.dashes[..<(taken * 3)])
                dashes -= taken
            }
        }
        out.append(contentsOf: corners[6..<9])
        if colors { out.appendReset() }
        out.append(0x0A)
    }

    /// A cell's line in its column, aligned, between spaces, and the bar after it.
    func pad(
        _ content: UnsafeBufferPointer<UInt8>, width contentWidth: Int, column: Int, _ widths: [Int], _ bar: [UInt8],
        into out: inout RenderBuffer
    ) {
        let gap = max(0, widths[column] - contentWidth)
        let alignment = column < alignments.count ? alignments[column] : .left
        let (before, after) =
            switch alignment {
            case .left: (0, gap)
            case .right: (gap, 0)
            case .center: (gap / 2, gap - gap / 2)
            }
        out.appendSpaces(before + 1)
        out.append(contentsOf: content)
        out.appendSpaces(after + 1)
        out.append(contentsOf: bar)
    }

    static let bar = Array("│".utf8)
    static let dimBar = Array(TextStyle(dim: true).apply("│", colors: true).utf8)
    static let dashes = Array(String(repeating: "─", count: 64).utf8)
    static let topCorners = Array("┌┬┐".utf8)
    static let middleCorners = Array("├┼┤".utf8)
    static let bottomCorners = Array("└┴┘".utf8)

    /// The width of a cell's widest line (`<br>` breaks lines).
    static func naturalWidth(_ text: StyledText, _ runs: Range<Int>) -> Int {
        let bytes = text.bytes
        if !runs.contains(where: { bytes[text.runs[$0].range].contains(0x0A) }) {
            return runs.reduce(0) { $0 + DisplayWidth.of(utf8: bytes[text.runs[$1].range]) }
        }
        var widest = 0
        var current = 0
        for run in runs {
            for (index, line) in bytes[text.runs[run].range].split(separator: 0x0A, omittingEmptySubsequences: false)
                .enumerated()
            {
                if index > 0 {
                    widest = max(widest, current)
                    current = 0
                }
                current += DisplayWidth.of(utf8: line)
            }
        }
        return max(widest, current)
    }
}
