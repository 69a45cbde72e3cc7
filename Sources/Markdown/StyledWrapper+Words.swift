/// The wrapper's fast ways: a run that fits the line written whole, a plain ASCII run laid out a line at a
/// time, a word within one run placed from the run's bytes. Each writes the bytes the general way (`place`) would.
extension StyledWrapper {
    /// Part of a word kept until the word ends (in a later run).
    mutating func gather(_ bytes: UnsafeBufferPointer<UInt8>, run: Int, style: TextStyle) {
        let start = scratch.count
        scratch.append(contentsOf: bytes)
        pieces.append(Piece(run: run, style: style, range: start..<scratch.count))
    }

    /// A word of one run, `width` columns wide, placed as `place` places it: on this line after the
    /// pending spaces, or on the next; one that needs cutting goes the general way.
    mutating func placeWord(
        _ word: UnsafeBufferPointer<UInt8>, width wordWidth: Int, _ style: TextStyle, _ link: String?,
        _ text: StyledText, _ run: Int,
        into out: inout RenderBuffer
    ) {
        let (breaks, startColumn) = placement(ofWordWidth: wordWidth)
        guard startColumn + wordWidth <= width || wordWidth == 0 else {
            gather(word, run: run, style: style)
            place(text, into: &out)
            pieces.removeAll(keepingCapacity: true)
            scratch.removeAll(keepingCapacity: true)
            return
        }
        beginWord(breaking: breaks, style, link, into: &out)
        if colors, !style.isPlain || link != nil, !word.isEmpty {
            styles.open(style, link: link, hyperlinks: hyperlinks, into: &out)
            out.append(contentsOf: word)
            styles.close(style, link: link, hyperlinks: hyperlinks, into: &out)
        } else {
            out.append(contentsOf: word)
        }
        column += wordWidth
    }

    /// A word of a run without style codes placed as `placeWord` places it, but not written yet: a line's
    /// words are written together as the run's bytes from the first to the last, when the spaces between
    /// them are the run's own (what the word path writes). Returns the words held, or nil when the word
    /// needs cutting (the general way).
    mutating func hold(
        _ word: Range<Int>, width wordWidth: Int, held: Range<Int>?, of bytes: UnsafeBufferPointer<UInt8>,
        _ style: TextStyle,
        _ link: String?, into out: inout RenderBuffer
    ) -> Range<Int>? {
        let (breaks, startColumn) = placement(ofWordWidth: wordWidth)
        guard startColumn + wordWidth <= width || wordWidth == 0 else { return nil }
        var held = held
        if breaks {
            Self.write(&held, of: bytes, into: &out)
            breakLine(into: &out)
        } else if pendingSpaces > 0, lineHasWord {
            if let words = held, word.lowerBound - words.upperBound == pendingSpaces,
                bytes[words.upperBound..<word.lowerBound].allSatisfy({ $0 == 0x20 })
            {
                column += pendingSpaces
            } else {
                Self.write(&held, of: bytes, into: &out)
                writePendingSpaces(before: style, link: link, into: &out)
            }
        } else {
            Self.write(&held, of: bytes, into: &out)
        }
        pendingSpaces = 0
        lineHasWord = true
        lastStyle = style
        lastLink = link
        column += wordWidth
        return (held?.lowerBound ?? word.lowerBound)..<word.upperBound
    }

    /// The held words written, as they are.
    static func write(_ held: inout Range<Int>?, of bytes: UnsafeBufferPointer<UInt8>, into out: inout RenderBuffer) {
        guard let words = held else { return }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[words]))
        held = nil
    }

    /// A run of printable ASCII shown without style codes, laid out a line at a time: a line's words written as
    /// one piece of the run (the spaces between them are the run's, as the word path writes them); a word
    /// too wide for a line goes the general way.
    mutating func fill(
        _ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle, _ link: String?, _ text: StyledText, _ run: Int,
        into out: inout RenderBuffer
    ) {
        // Where the run's last word ends (spaces after it are held for the next word).
        var lastWordEnd = bytes.count
        while lastWordEnd > 0, bytes[lastWordEnd - 1] == 0x20 { lastWordEnd -= 1 }
        var index = 0
        while index < bytes.count {
            var wordStart = index
            while wordStart < bytes.count, bytes[wordStart] == 0x20 { wordStart += 1 }
            pendingSpaces += wordStart - index
            // Spaces at the end are held for the next word.
            guard wordStart < bytes.count else { return }
            var wordEnd = wordStart
            while wordEnd < bytes.count, bytes[wordEnd] != 0x20 { wordEnd += 1 }
            let wordWidth = wordEnd - wordStart
            let (breaks, startColumn) = placement(ofWordWidth: wordWidth)
            guard startColumn + wordWidth <= width else {
                placeWord(
                    UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd]), width: wordWidth, style, link, text, run,
                    into: &out)
                index = wordEnd
                continue
            }
            beginWord(breaking: breaks, style, link, into: &out)
            // The words after it that fit on this line, with the spaces between them: every byte is a column,
            // so the line ends at the last word end within `limit` (found going back from it, one word at most).
            // (The room is compared, not `wordStart + room`: the width is what COLUMNS says, up to `Int.max`.)
            let room = width - startColumn
            var end: Int
            if room >= lastWordEnd - wordStart {
                end = lastWordEnd
            } else {
                end = wordStart + room
                if bytes[end] != 0x20 { while bytes[end - 1] != 0x20 { end -= 1 } }
                while bytes[end - 1] == 0x20 { end -= 1 }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[wordStart..<end]))
            column = startColumn + end - wordStart
            index = end
        }
    }

    /// Writes `run` (one with style codes; plain runs are `fill`'s) when it is printable ASCII and fits on
    /// the line, as placing it word by word would show it: leading spaces dropped at the start of a line, trailing ones held, the spaces before it
    /// styled when the word path styles them; the same bytes the word path writes.
    mutating func fitsWhole(
        _ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle, _ link: String?, into out: inout RenderBuffer
    ) -> Bool {
        var first = 0
        while first < bytes.count, bytes[first] == 0x20 { first += 1 }
        var last = bytes.count
        while last > first, bytes[last - 1] == 0x20 { last -= 1 }
        let leading = first
        guard first < last else { return false }
        let middle = UnsafeBufferPointer(rebasing: bytes[first..<last])
        let spaces = lineHasWord ? pendingSpaces + leading : 0
        guard column + spaces + middle.count <= width, DisplayWidth.printableASCIICount(middle) != nil else {
            return false
        }
        if spaces > 0 {
            pendingSpaces = spaces
            writePendingSpaces(before: style, link: link, into: &out)
        }
        // Word by word, each in its style, as the word path writes them (a line streamed in parts and the
        // same line whole must come out as the same bytes).
        let styledSpaces = style.underline || style.strike
        var index = first
        while index < last {
            var end = index
            while end < last, bytes[end] != 0x20 { end += 1 }
            styles.open(style, link: link, hyperlinks: hyperlinks, into: &out)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            styles.close(style, link: link, hyperlinks: hyperlinks, into: &out)
            index = end
            while index < last, bytes[index] == 0x20 { index += 1 }
            guard index > end else { continue }
            if styledSpaces { styles.open(style, link: link, hyperlinks: hyperlinks, into: &out) }
            out.appendSpaces(index - end)
            if styledSpaces { styles.close(style, link: link, hyperlinks: hyperlinks, into: &out) }
        }
        column += middle.count
        pendingSpaces = bytes.count - last
        lineHasWord = true
        lastStyle = style
        lastLink = link
        return true
    }

    /// Where a word `wordWidth` wide goes, as `place` decides: whether the line breaks before it, and the
    /// column it starts at (after the spaces held, when it stays on this line with words before it).
    func placement(ofWordWidth wordWidth: Int) -> (breaks: Bool, startColumn: Int) {
        let breaks = lineHasWord && column + pendingSpaces + wordWidth > width
        return (breaks, breaks ? hangingWidth : lineHasWord ? column + pendingSpaces : column)
    }

    /// Before a word that fits: the line broken, or the spaces held written; the word's style noted.
    mutating func beginWord(breaking breaks: Bool, _ style: TextStyle, _ link: String?, into out: inout RenderBuffer) {
        if breaks {
            breakLine(into: &out)
        } else if pendingSpaces > 0, lineHasWord {
            writePendingSpaces(before: style, link: link, into: &out)
        }
        pendingSpaces = 0
        lineHasWord = true
        lastStyle = style
        lastLink = link
    }

    /// The spaces held before a word in `style`: styled like it when the word before was in the same
    /// underlined or struck-through style and link (a link or a struck phrase reads as one).
    mutating func writePendingSpaces(before style: TextStyle, link: String?, into out: inout RenderBuffer) {
        if colors, style.underline || style.strike, let lastStyle, lastStyle == style, lastLink == link {
            styles.open(style, link: link, hyperlinks: hyperlinks, into: &out)
            out.appendSpaces(pendingSpaces)
            styles.close(style, link: link, hyperlinks: hyperlinks, into: &out)
        } else {
            out.appendSpaces(pendingSpaces)
        }
        column += pendingSpaces
    }
}
