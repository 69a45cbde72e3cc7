/// A table row's cells and the delimiter row's alignments, read from the row's bytes.
extension MarkdownTable {
    /// The cells of the row `bytes[line]`: split at `|` outside code spans and not escaped, the outer pipes
    /// dropped, each trimmed of spaces; each a range of `bytes`, or, when it holds `\|`, of a copy with plain
    /// pipes added at its end (after a space: nothing before a cell's first byte joins onto it).
    static func cells(_ bytes: inout [UInt8], _ line: Range<Int>) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        self.cells(&bytes, line, into: &cells)
        return cells
    }

    /// The same, appended to `cells`.
    static func cells(_ bytes: inout [UInt8], _ line: Range<Int>, into cells: inout [Range<Int>]) {
        let first = cells.count
        var escaped = false
        var inCode = false
        var start = line.lowerBound
        bytes.withUnsafeBufferPointer { bytes in
            var i = line.lowerBound
            while i < line.upperBound {
                // Only `\`, a backtick and `|` matter.
                i = ByteScan.firstIndex(
                    of: UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "|"), in: bytes, from: i,
                    to: line.upperBound)
                guard i < line.upperBound else { break }
                let byte = bytes[i]
                if byte == UInt8(ascii: "\\"), i + 1 < line.upperBound, bytes[i + 1] == UInt8(ascii: "|") {
                    escaped = true
                    i += 2
                    continue
                }
                if byte == UInt8(ascii: "`") { inCode.toggle() }
                if byte == UInt8(ascii: "|"), !inCode {
                    cells.append(start..<i)
                    start = i + 1
                }
                i += 1
            }
        }
        cells.append(start..<line.upperBound)
        // The outer pipes' empty cells dropped, each cell trimmed of spaces and tabs (read unchecked: every
        // range is inside the line).
        bytes.withUnsafeBufferPointer { bytes in
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            func blank(_ range: Range<Int>) -> Bool {
                for index in range where !isSpace(bytes[index]) { return false }
                return true
            }
            if blank(cells[first]) { cells.remove(at: first) }
            if cells.count > first, blank(cells[cells.count - 1]) { cells.removeLast() }
            for index in first..<cells.count {
                var lower = cells[index].lowerBound
                var upper = cells[index].upperBound
                while lower < upper, isSpace(bytes[lower]) { lower += 1 }
                while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
                cells[index] = lower..<upper
            }
        }
        guard escaped else { return }
        for index in first..<cells.count where Self.holdsEscapedPipe(bytes, cells[index]) {
            let (lower, upper) = (cells[index].lowerBound, cells[index].upperBound)
            // `\|` is a pipe inside the cell.
            bytes.append(0x20)
            let copy = bytes.count
            var j = lower
            while j < upper {
                if bytes[j] == UInt8(ascii: "\\"), j + 1 < upper, bytes[j + 1] == UInt8(ascii: "|") { j += 1 }
                bytes.append(bytes[j])
                j += 1
            }
            cells[index] = copy..<bytes.count
        }
    }

    /// Whether `bytes[range]` holds a `\|` (the split takes every backslash before a pipe as one).
    static func holdsEscapedPipe(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        range.dropLast().contains { bytes[$0] == UInt8(ascii: "\\") && bytes[$0 + 1] == UInt8(ascii: "|") }
    }

    static func alignments(_ cells: [ArraySlice<UInt8>]) -> [Alignment]? {
        guard !cells.isEmpty else { return nil }
        var result: [Alignment] = []
        for cell in cells {
            guard cell.contains(UInt8(ascii: "-")),
                cell.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") })
            else { return nil }
            switch (cell.first == UInt8(ascii: ":"), cell.last == UInt8(ascii: ":")) {
            case (true, true): result.append(.center)
            case (false, true): result.append(.right)
            default: result.append(.left)
            }
        }
        return result
    }
}
