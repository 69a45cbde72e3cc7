/// Parses one line's inline Markdown (emphasis, strikethrough, code spans, links, images, autolinks,
/// `<br>`, backslash escapes) into styled runs. Works on UTF-8 bytes: every marker is ASCII.
///
/// A marker that could open something (`*`, `_`, `~~`, a backtick run, `[`, `<`) and finds no closer on
/// the line is literal text, and marks the parse `unresolved`: a streamed line is only shown up to a point
/// where nothing is unresolved, so what is shown early is what the whole line renders to.
struct InlineMarkdown {
    /// The bytes parsed (the runs' ranges are of these, and of what the parse adds after them in `text`).
    let bytes: [UInt8]
    let colors: Bool
    let hyperlinks: Bool
    /// The runs so far, over `bytes` and the text the parse added.
    var text: StyledText
    /// Some opener found no closer.
    var unresolved = false
    /// Where the first of them is.
    var firstUnresolvedAt: Int?
    /// The first run a new run may be joined onto.
    var firstRun = 0

    init(_ bytes: [UInt8], colors: Bool, hyperlinks: Bool) {
        self.bytes = bytes
        self.colors = colors
        self.hyperlinks = hyperlinks
        self.text = StyledText(bytes)
    }

    /// Starts a new piece of text: a run made after this is not joined onto one made before it (a table's
    /// cells are parsed one after another into one text).
    mutating func startPiece() {
        firstRun = text.runs.count
    }

    mutating func parse(_ range: Range<Int>, style: TextStyle) {
        var i = range.lowerBound
        var textStart = i
        let end = range.upperBound
        let mayStart = Self.mayStart
        while i < end {
            // Most bytes start nothing: skipped over the array's storage, without the switch.
            i = bytes.withUnsafeBufferPointer { bytes in
                var j = i
                while j < end, !mayStart.contains(bytes[j]) { j += 1 }
                return j
            }
            guard i < end else { break }
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\\") where i + 1 < end && Self.isPunctuation(bytes[i + 1]):
                appendText(textStart, i, style)
                append((i + 1)..<(i + 2), style)
                i += 2
                textStart = i
            case UInt8(ascii: "`"):
                let n = run(of: byte, at: i, end: end)
                if let close = closingBackticks(n, from: i + n, end: end) {
                    appendText(textStart, i, style)
                    codeSpan(i + n, close, style: style)
                    i = close + n
                    textStart = i
                } else {
                    markUnresolved(at: i)
                    i += n
                }
            case UInt8(ascii: "*"), UInt8(ascii: "_"):
                let n = run(of: byte, at: i, end: end)
                let width = min(n, 3)
                let found =
                    opens(byte, at: i, count: n, end: end)
                    ? closer(byte, width, from: i + n, end: end, nesting: true) : nil
                // Closed only for now: an emphasis inside it may still find its closer further on.
                if let found, !found.certain { markUnresolved(at: i) }
                if let close = found?.at {
                    appendText(textStart, i, style)
                    // Extra markers of a longer run stay literal before the emphasis.
                    if n > width { append(i..<(i + n - width), style) }
                    var inner = style
                    if width != 2 { inner.italic = true }
                    if width >= 2 { inner.bold = true }
                    parse((i + n)..<close, style: inner)
                    i = close + width
                    textStart = i
                } else {
                    if opens(byte, at: i, count: n, end: end) { markUnresolved(at: i) }
                    i += n
                }
            case UInt8(ascii: "~"):
                let n = run(of: byte, at: i, end: end)
                if n == 2, i + 2 < end, !Self.isSpace(bytes[i + 2]) {
                    if let close = closer(byte, 2, from: i + 2, end: end).at {
                        appendText(textStart, i, style)
                        var inner = style
                        inner.strike = true
                        if !colors { append(i..<(i + 2), style) }
                        parse((i + 2)..<close, style: inner)
                        if !colors { append(close..<(close + 2), style) }
                        i = close + 2
                        textStart = i
                        continue
                    }
                    markUnresolved(at: i)
                }
                i += n
            case UInt8(ascii: "["), UInt8(ascii: "!"):
                if let next = link(at: i, end: end, style: style, textFrom: textStart) {
                    i = next
                    textStart = i
                } else {
                    i += 1
                }
            case UInt8(ascii: "<") where i + 1 < end && Self.isLetter(bytes[i + 1]):
                if let next = angle(at: i, end: end, style: style, textFrom: textStart) {
                    i = next
                    textStart = i
                } else {
                    i += 1
                }
            case UInt8(ascii: "h")
            where (i == range.lowerBound || Self.isSpace(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: "(")):
                if let urlEnd = bareURL(at: i, end: end) {
                    appendText(textStart, i, style)
                    let first = text.runs.count
                    text.runs.append(StyledRun(range: i..<urlEnd, style: style))
                    linkRuns(from: first, url: bytes.text(i..<urlEnd), style: style)
                    i = urlEnd
                    textStart = i
                } else {
                    i += 1
                }
            default:
                i += 1
            }
        }
        appendText(textStart, end, style)
    }

    /// The bytes the parse looks at: `\\`, a backtick, `*`, `_`, `~`, `[`, `!`, `<` and `h` (a bare URL).
    static let mayStart = ByteSet("\\`*_~[!<h".utf8)

    // MARK: Pieces

    mutating func markUnresolved(at index: Int) {
        unresolved = true
        firstUnresolvedAt = min(firstUnresolvedAt ?? index, index)
    }

    /// The text from `start` up to `end` (none when `end` is not past it), in `style`.
    mutating func appendText(_ start: Int, _ end: Int, _ style: TextStyle) {
        if end > start { append(start..<end, style) }
    }

    /// `bytes[range]` in `style`, joined onto the last run when that one ends where it starts in the same style.
    mutating func append(_ range: Range<Int>, _ style: TextStyle) {
        guard !range.isEmpty else { return }
        let last = text.runs.count - 1
        if last >= firstRun, text.runs[last].link < 0, text.runs[last].range.upperBound == range.lowerBound,
            text.runs[last].style == style
        {
            text.runs[last].range = text.runs[last].range.lowerBound..<range.upperBound
        } else {
            text.runs.append(StyledRun(range: range, style: style))
        }
    }

    mutating func codeSpan(_ start: Int, _ end: Int, style: TextStyle) {
        var lower = start
        var upper = end
        // One space on each side is padding when both are there (`` `x` ``).
        if upper - lower >= 2, bytes[lower] == 0x20, bytes[upper - 1] == 0x20 {
            lower += 1
            upper -= 1
        }
        var code = style
        code.code = true
        if colors {
            append(lower..<upper, code)
        } else {
            text.append("`" + bytes.text(lower..<upper) + "`", code)
        }
    }

    /// The runs from `first` on (the link's text) in link style, then its target: an OSC 8 hyperlink, or
    /// ` (url)` after the text.
    mutating func linkRuns(from first: Int, url: String, style: TextStyle) {
        let shownIsURL = colors && hyperlinks || text.text(first..<text.runs.count, equals: url)
        let link = Int32(text.links.count)
        text.links.append(url)
        for index in first..<text.runs.count {
            text.runs[index].link = link
            if colors {
                text.runs[index].style.underline = true
                text.runs[index].style.color = .blue
            }
        }
        if !shownIsURL {
            var dim = style
            dim.dim = true
            text.append(parenthesized: url, dim)
        }
    }

    func run(of byte: UInt8, at index: Int, end: Int) -> Int {
        var j = index
        while j < end, bytes[j] == byte { j += 1 }
        return j - index
    }

    func closingBackticks(_ count: Int, from start: Int, end: Int) -> Int? {
        var j = start
        while j < end {
            if bytes[j] == UInt8(ascii: "`") {
                let n = run(of: bytes[j], at: j, end: end)
                if n == count { return j }
                j += n
            } else {
                j += 1
            }
        }
        return nil
    }

    /// Whether a run of `count` markers at `index` can open emphasis: followed by a non-space, and for `_`
    /// not inside a word (`snake_case` stays as it is).
    func opens(_ byte: UInt8, at index: Int, count: Int, end: Int) -> Bool {
        let after = index + count
        guard after < end, !Self.isSpace(bytes[after]) else { return false }
        if byte == UInt8(ascii: "_"), index > 0, Self.isAlphanumeric(bytes[index - 1]) { return false }
        return true
    }

    /// The first closing run of at least `width` markers (its last `width` close), skipping code spans and
    /// escapes: preceded by a non-space, and for `_` not followed by a letter or digit. With `nesting`, a run
    /// that can only open (after a space or punctuation, before a non-space: the `**` of `*a **b** c*`) is
    /// skipped together with its own closer, one level deep; when it has none, the closer found is not
    /// `certain` (more text could close it, and then this one would close later).
    func closer(_ byte: UInt8, _ width: Int, from start: Int, end: Int, nesting: Bool = false) -> (
        at: Int?, certain: Bool
    ) {
        var certain = true
        var j = start
        while j < end {
            let current = bytes[j]
            if current == UInt8(ascii: "\\") {
                j += 2
                continue
            }
            if current == UInt8(ascii: "`") {
                let n = run(of: current, at: j, end: end)
                if let close = closingBackticks(n, from: j + n, end: end) { j = close + n } else { j += n }
                continue
            }
            guard current == byte else {
                j += 1
                continue
            }
            let n = run(of: byte, at: j, end: end)
            let after = j + n
            let preceded = j > start && !Self.isSpace(bytes[j - 1])
            if n >= width, preceded, !(byte == UInt8(ascii: "_") && after < end && Self.isAlphanumeric(bytes[after])) {
                return (after - width, certain)
            }
            if nesting, !(preceded && !Self.isPunctuation(bytes[j - 1])), opens(byte, at: j, count: n, end: end) {
                let innerWidth = min(n, 3)
                if let inner = closer(byte, innerWidth, from: after, end: end).at {
                    j = inner + innerWidth
                    continue
                }
                certain = false
            }
            j += n
        }
        return (nil, certain)
    }
}
