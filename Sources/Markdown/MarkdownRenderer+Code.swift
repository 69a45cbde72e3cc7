import Foundation

/// Fenced code: a header naming the language, each line highlighted as it completes, long lines cut at
/// the width with a visible continuation mark, and a closing rule.
extension MarkdownRenderer {
    mutating func openFence(
        indent: Int, marker: UInt8, count: Int, info: ArraySlice<UInt8>, into out: inout RenderBuffer
    ) {
        // Inside a list item: under its text, leaving the code at least eight columns.
        let screenIndent =
            indent > 0 && !lists.isEmpty ? min(lists.last?.hangingWidth ?? 0, max(options.width - 10, 0)) : 0
        // The header's name and the language, found once for each info string and room (kept for the last
        // sixteen: an answer's fences mostly name a few languages).
        let roomForName = max(options.width - screenIndent - 4, 1)
        let header: FenceHeader
        if let known = fenceHeaders.first(where: { $0.matches(info, room: roomForName) }) {
            header = known
        } else {
            header = FenceHeader(info: info, room: roomForName, colors: options.colors)
            if fenceHeaders.count == 16 { fenceHeaders.removeFirst() }
            fenceHeaders.append(header)
        }
        // `─── swift`, dimmed (made once per header: a fence opens every few lines in some answers).
        out.appendSpaces(screenIndent)
        out.append(contentsOf: header.line)
        fence = Fence(
            indent: indent, marker: marker, count: count, screenIndent: screenIndent,
            highlighter: SyntaxHighlighter(language: header.language, reusing: tokenStorage))
        tokenStorage = []
    }

    mutating func codeLine(_ line: [UInt8], into out: inout RenderBuffer) {
        guard let marker = fence?.marker, let count = fence?.count, let indent = fence?.indent else { return }
        if Fence.closes(line[...], marker: marker, count: count) {
            closeFence(into: &out)
            return
        }
        let start = Self.offset(ofColumn: indent, in: line)
        var code = start == 0 ? line : Array(line[start...])
        if code.withUnsafeBufferPointer({ $0.baseAddress.map { memchr($0, 0x09, code.count) != nil } ?? false }) {
            code = Self.tabsExpanded(code)
        }
        // Highlighted in place: the fence (and its highlighter's state) is not copied per line.
        let tokens = fence!.highlighter.highlight(code)
        emitCode(code, tokens, indent: fence!.codeIndent, into: &out)
    }

    static let dimRule = Array((TextStyle(dim: true).apply("───", colors: true) + "\n").utf8)
    static let plainRule = Array("───\n".utf8)

    mutating func closeFence(into out: inout RenderBuffer) {
        let indent = fence?.screenIndent ?? 0
        tokenStorage = fence?.highlighter.takeStorage() ?? []
        fence = nil
        out.appendSpaces(indent)
        out.append(contentsOf: options.colors ? Self.dimRule : Self.plainRule)
        afterBlank = false
        afterListText = false
    }

    /// One line of code after `indent` spaces; what does not fit goes on as many lines as it needs, each
    /// starting with `↪` under the code.
    mutating func emitCode(
        _ code: [UInt8], _ tokens: [SyntaxHighlighter.Token], indent: Int, into out: inout RenderBuffer
    ) {
        let room = max(options.width - indent, 8)
        out.appendSpaces(indent)
        // An ASCII line that fits: as it is (tokens written from the line's storage, no slice per token).
        if code.count <= room, code.withUnsafeBufferPointer({ DisplayWidth.printableASCIICount($0) != nil }) {
            code.withUnsafeBufferPointer { code in
                for token in tokens { write(UnsafeBufferPointer(rebasing: code[token.range]), token.style, into: &out) }
            }
            out.append(0x0A)
            return
        }
        var column = 0
        let mark = TextStyle(dim: true).apply("↪ ", colors: options.colors)
        for token in tokens {
            if DisplayWidth.isNarrow(code[token.range]) {
                // One column per scalar: cut between scalars without decoding characters.
                var pieceStart = token.range.lowerBound
                var index = pieceStart
                while index < token.range.upperBound {
                    if column + 1 > room {
                        write(code[pieceStart..<index], token.style, into: &out)
                        Self.continueLine(indent: indent, mark: mark, into: &out)
                        pieceStart = index
                        column = 2
                    }
                    column += 1
                    index += DisplayWidth.scalarLength(code[index])
                }
                write(code[pieceStart..<token.range.upperBound], token.style, into: &out)
                continue
            }
            var piece = ""
            for character in code.text(token.range) {
                let width = DisplayWidth.of(character)
                if column + width > room {
                    write(ArraySlice(piece.utf8), token.style, into: &out)
                    Self.continueLine(indent: indent, mark: mark, into: &out)
                    piece = ""
                    column = 2
                }
                piece.append(character)
                column += width
            }
            write(ArraySlice(piece.utf8), token.style, into: &out)
        }
        out.append(0x0A)
    }

    /// A code line's continuation: a new line, the indent, and the mark under the code.
    static func continueLine(indent: Int, mark: String, into out: inout RenderBuffer) {
        out.append(0x0A)
        out.appendSpaces(indent)
        out += mark
    }

    /// `bytes` in `style` (each piece closes its own style).
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle, into out: inout RenderBuffer) {
        guard options.colors, !style.isPlain, !bytes.isEmpty else {
            out.append(contentsOf: bytes)
            return
        }
        styleCodes.open(style, hyperlinks: false, into: &out)
        out.append(contentsOf: bytes)
        styleCodes.close(style, hyperlinks: false, into: &out)
    }

    /// `bytes` in `style` (each piece closes its own style).
    mutating func write(_ bytes: ArraySlice<UInt8>, _ style: TextStyle, into out: inout RenderBuffer) {
        bytes.withUnsafeBufferPointer { write($0, style, into: &out) }
    }
}
