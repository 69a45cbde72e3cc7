/// Places styled runs on terminal lines of a width, word by word: a word that does not fit starts a new
/// line with the hanging indent; a word wider than a whole line is cut where the line ends. Widths are
/// display widths (CJK and emoji take two columns). `"\n"` in a run is a line break (`<br>`). Writes
/// UTF-8 bytes: rendering is a stream of small appends, which bytes make cheap.
struct StyledWrapper: Sendable {
    private(set) var width: Int
    let colors: Bool
    let hyperlinks: Bool
    /// The column the cursor is at.
    var column = 0
    /// What starts each continuation line.
    var hanging = LinePrefix.none
    var hangingWidth: Int { hanging.width }
    var pendingSpaces = 0
    /// A word has been placed on the current line since its prefix.
    var lineHasWord = false
    /// The style of the last run placed on the line: spaces between two words of one underlined or
    /// struck-through style take the style too, so a link or a struck phrase reads as one.
    var lastStyle: TextStyle?
    var lastLink: String?
    /// The runs being placed, their bytes one after another (reused from call to call).
    var scratch: [UInt8] = []
    /// The word being gathered: pieces of `scratch` with the index of their run's style (reused).
    var pieces: [Piece] = []

    /// Part of a word: a range of `scratch`, in its run's style (run `run`, for the link).
    struct Piece {
        var run: Int
        var style: TextStyle
        var range: Range<Int>
    }
    var styles = StyleCodes()
    /// The fast ways on (tests turn them off to hold them to the general way's bytes).
    var fastPaths = true

    init(width: Int, colors: Bool, hyperlinks: Bool, minimum: Int = 8) {
        self.width = max(width, minimum)
        self.colors = colors
        self.hyperlinks = hyperlinks
    }

    /// The same wrapper for another width (its buffers kept), at the start of a line.
    mutating func reset(width: Int, minimum: Int = 8) {
        self.width = max(width, minimum)
        var ignored = RenderBuffer()
        startLine(prefix: .none, hanging: .none, into: &ignored)
    }

    /// Starts a line with `prefix` (a list marker, a quote bar), continuation lines with `hanging`.
    mutating func startLine(prefix: LinePrefix, hanging: LinePrefix, into out: inout RenderBuffer) {
        prefix.write(into: &out)
        column = prefix.width
        self.hanging = hanging
        pendingSpaces = 0
        lineHasWord = false
        lastStyle = nil
        lastLink = nil
    }

    /// Places `text`'s runs after what is on the line. Spaces at the end are held for the next word (and
    /// dropped at the end of the line).
    mutating func add(_ text: StyledText, into out: inout RenderBuffer) {
        add(text, runs: 0..<text.runs.count, into: &out)
    }

    /// Places runs `runs` of `text` after what is on the line.
    mutating func add(_ text: StyledText, runs: Range<Int>, into out: inout RenderBuffer) {
        // (Nearly always empty already: emptying an empty array still goes through replaceSubrange.)
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        if !pieces.isEmpty { pieces.removeAll(keepingCapacity: true) }
        text.bytes.withUnsafeBufferPointer { all in
            for index in runs {
                let run = text.runs[index]
                let bytes = UnsafeBufferPointer(rebasing: all[run.range])
                let style = run.style
                let link = hyperlinks && colors ? text.link(run) : nil
                // Words shown without style codes are held and written a line's worth at a time.
                let unstyled = !colors || (style.isPlain && link == nil)
                // A run whose last word does not go on into the next run: printable ASCII without style codes is
                // laid out a line at a time; with them, it goes out whole when it fits (what the word by word path shows).
                if fastPaths, pieces.isEmpty,
                    index == runs.upperBound - 1 || bytes.last == 0x20 || all[text.runs[index + 1].range].first == 0x20
                {
                    if unstyled, DisplayWidth.printableASCIICount(bytes) != nil {
                        fill(bytes, style, link, text, index, into: &out)
                        continue
                    }
                    if !unstyled, fitsWhole(bytes, style, link, into: &out) { continue }
                }
                addWords(bytes, style, link, unstyled, text, index, into: &out)
            }
        }
        if !pieces.isEmpty {
            place(text, into: &out)
            pieces.removeAll(keepingCapacity: true)
            scratch.removeAll(keepingCapacity: true)
        }
    }

    /// Places the words of run `index` of `text` (its `bytes`) one by one; its last word may go on in the next run.
    private mutating func addWords(
        _ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle, _ link: String?, _ unstyled: Bool, _ text: StyledText,
        _ index: Int,
        into out: inout RenderBuffer
    ) {
        var held: Range<Int>?
        var start = 0
        var ascii = true
        var offset = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            // Most bytes are a word's (printable ASCII above the space): skipped eight at a time.
            guard byte <= 0x20 else {
                if byte >= 0x7F {
                    ascii = false
                    offset += 1
                } else {
                    offset = DisplayWidth.nextNonWordByte(in: bytes, from: offset + 1)
                }
                continue
            }
            defer { offset += 1 }
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A else {
                // Another control byte (the renderer shows them as pictures first): no column of its own.
                ascii = false
                continue
            }
            if start < offset {
                let word = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                if fastPaths, pieces.isEmpty {
                    // A word within one run: placed from the run's bytes.
                    let wordWidth = ascii ? word.count : DisplayWidth.of(utf8: word)
                    if unstyled,
                        let extended = hold(
                            start..<offset, width: wordWidth, held: held, of: bytes, style, link, into: &out)
                    {
                        held = extended
                    } else {
                        Self.write(&held, of: bytes, into: &out)
                        placeWord(word, width: wordWidth, style, link, text, index, into: &out)
                    }
                } else {
                    gather(word, run: index, style: style)
                }
            }
            if !pieces.isEmpty {
                Self.write(&held, of: bytes, into: &out)
                place(text, into: &out)
                pieces.removeAll(keepingCapacity: true)
                scratch.removeAll(keepingCapacity: true)
            }
            if byte == 0x0A {
                Self.write(&held, of: bytes, into: &out)
                breakLine(into: &out)
            } else {
                pendingSpaces += 1
            }
            start = offset + 1
            ascii = true
        }
        Self.write(&held, of: bytes, into: &out)
        // The run's last word may go on in the next run.
        if start < bytes.count { gather(UnsafeBufferPointer(rebasing: bytes[start...]), run: index, style: style) }
    }

    /// The display width of the gathered word (ASCII counted byte by byte).
    private func wordWidth() -> Int {
        var count = 0
        for piece in pieces {
            for byte in scratch[piece.range] {
                if byte >= 0x7F {
                    return pieces.reduce(0) { sum, piece in sum + DisplayWidth.of(utf8: scratch[piece.range]) }
                }
                if byte >= 0x20 { count += 1 }
            }
        }
        return count
    }

    /// Ends the line.
    mutating func endLine(into out: inout RenderBuffer) {
        out.append(0x0A)
        column = 0
        pendingSpaces = 0
        lineHasWord = false
        lastStyle = nil
        lastLink = nil
    }

    /// A line break inside the block: the next line starts at the hanging indent.
    mutating func breakLine(into out: inout RenderBuffer) {
        out.append(0x0A)
        hanging.write(into: &out)
        column = hanging.width
        pendingSpaces = 0
        lineHasWord = false
        lastStyle = nil
        lastLink = nil
    }

    mutating func place(_ text: StyledText, into out: inout RenderBuffer) {
        let wordWidth = wordWidth()
        if lineHasWord, column + pendingSpaces + wordWidth > width {
            breakLine(into: &out)
        } else if pendingSpaces > 0, lineHasWord {
            writePendingSpaces(before: pieces[0].style, link: link(text, pieces[0]), into: &out)
        }
        pendingSpaces = 0
        lineHasWord = true
        lastStyle = pieces[pieces.count - 1].style
        lastLink = link(text, pieces[pieces.count - 1])
        guard column + wordWidth > width, wordWidth > 0 else {
            for piece in pieces { write(piece.range, piece.style, link(text, piece), into: &out) }
            column += wordWidth
            return
        }
        // Wider than what is left of an empty line: cut at the line's end.
        for piece in pieces {
            let style = piece.style
            let link = link(text, piece)
            if DisplayWidth.isNarrow(scratch[piece.range]) {
                // One column per scalar: cut between scalars without decoding characters.
                var partStart = piece.range.lowerBound
                var index = partStart
                while index < piece.range.upperBound {
                    if column + 1 > width, column > hangingWidth {
                        write(partStart..<index, style, link, into: &out)
                        partStart = index
                        breakLine(into: &out)
                        lineHasWord = true
                    }
                    column += 1
                    index += DisplayWidth.scalarLength(scratch[index])
                }
                write(partStart..<piece.range.upperBound, style, link, into: &out)
                continue
            }
            var part = ""
            for character in scratch.text(piece.range) {
                let characterWidth = DisplayWidth.of(character)
                if column + characterWidth > width, column > hangingWidth {
                    write(part, style, link, into: &out)
                    part = ""
                    breakLine(into: &out)
                    lineHasWord = true
                }
                part.append(character)
                column += characterWidth
            }
            write(part, style, link, into: &out)
        }
    }

    /// The piece's link, when it is shown as a hyperlink.
    private func link(_ text: StyledText, _ piece: Piece) -> String? {
        hyperlinks && colors ? text.link(text.runs[piece.run]) : nil
    }

    /// Bytes of `scratch` in `style`, as a hyperlink to `link` when there is one.
    private mutating func write(_ range: Range<Int>, _ style: TextStyle, _ link: String?, into out: inout RenderBuffer)
    {
        guard colors, !style.isPlain || link != nil, !range.isEmpty else {
            out.append(contentsOf: scratch[range])
            return
        }
        styles.open(style, link: link, hyperlinks: hyperlinks, into: &out)
        out.append(contentsOf: scratch[range])
        styles.close(style, link: link, hyperlinks: hyperlinks, into: &out)
    }

    private mutating func write(_ text: String, _ style: TextStyle, _ link: String?, into out: inout RenderBuffer) {
        guard colors, !style.isPlain || link != nil, !text.isEmpty else {
            out += text
            return
        }
        styles.open(style, link: link, hyperlinks: hyperlinks, into: &out)
        out += text
        styles.close(style, link: link, hyperlinks: hyperlinks, into: &out)
    }
}
