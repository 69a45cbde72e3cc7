import Foundation

/// Renders Markdown for a terminal as it streams in: headings, emphasis, code spans, links, nested
/// lists with hanging indents, task lists, block quotes, rules, tables and fenced or indented code with
/// syntax highlighting, wrapped to a width.
///
/// Nothing is written twice and nothing is repainted: each line is written once, as soon as what it
/// renders to is settled. A line of prose streams word by word up to the last point where no emphasis,
/// code span or link is still open; a table is held until it ends, then printed aligned; a code block's
/// lines are highlighted as each completes. So the output is the same whatever the chunks the text came
/// in. Source line breaks are kept (a chat answer's single newlines are meant as breaks).
public struct MarkdownRenderer: Sendable {
    public struct Options: Sendable, Hashable {
        var width: Int
        var colors: Bool
        /// Links as OSC 8 hyperlinks (else the URL is shown after the text).
        var hyperlinks: Bool

        /// A negative width is taken as none (rules and cells were made with a negative count, a trap).
        public init(width: Int, colors: Bool, hyperlinks: Bool) {
            self.width = max(width, 0)
            self.colors = colors
            self.hyperlinks = hyperlinks
        }
    }

    let options: Options
    /// What the last call wrote (up to a megabyte): the next call's buffer starts with that much room.
    var outputHint = 256
    /// The unfinished last line's bytes (and after them `staged`'s).
    var pending: [UInt8] = []
    /// The last quiet deltas' bytes, not yet added to `pending` (`unstage()` adds them).
    var staged = StagedBytes()
    /// A space arrived in the unfinished line since it was last looked at: `settle` may show more.
    var unsettled = false
    /// The unfinished line's start, once it has been shown in part, and how many of its bytes are out.
    var streamed: (line: TextLine, shownUpTo: Int)?
    /// The unfinished line's length when an opener in it was last found still open (a long line only).
    var unresolvedLength: Int?
    var wrapper: StyledWrapper
    /// The escape codes of the styles code is written in.
    var styleCodes = StyleCodes()
    /// The open list items, outermost first.
    var lists: [ListLevel] = []
    var fence: Fence?
    /// The headers of the last fences (their info strings, names and languages).
    var fenceHeaders: [FenceHeader] = []
    /// The last code block's token array, for the next one's highlighter.
    var tokenStorage: [SyntaxHighlighter.Token] = []
    /// The last line's runs' array, for the next line's.
    var runStorage: [StyledRun] = []
    /// A table's rows so far (the raw lines), printed when it ends.
    var table: [[UInt8]]?
    /// The previous line was blank (or there was none).
    var afterBlank = true
    /// The previous line was a list item's text (a line after it with no indent continues it).
    var afterListText = false
    /// The previous line was indented code.
    var afterIndentedCode = false
    /// A piece that only joins the unfinished line takes the short way (tests turn it off to hold it to the
    /// general way's bytes).
    var quietPieces = true

    /// A rule's line (`---`), made once.
    let horizontalRule: [UInt8]
    /// The heading levels' lines, made once.
    let headings: [TextLine]

    public init(options: Options) {
        self.options = options
        self.horizontalRule = Array(
            (TextStyle(dim: true).apply(String(repeating: "─", count: min(options.width, 80)), colors: options.colors)
                + "\n").utf8)
        self.headings = Self.headings(colors: options.colors)
        self.wrapper = StyledWrapper(width: options.width, colors: options.colors, hyperlinks: options.hyperlinks)
    }

    /// Takes the next piece of text; appends what can be written now to `out`.
    mutating func feed(_ text: String, into out: inout RenderBuffer) {
        // An empty piece decides nothing (not even whether a held carriage return ends the line).
        guard !text.isEmpty else { return }
        unstage()
        // A carriage return held at the end of the last piece was not a line ending after all.
        if pending.last == 0x0D, text.utf8.first != 0x0A {
            pending.removeLast()
            pending.append(contentsOf: Self.picture(0x0D))
        }
        var text = text
        let visible: String?
        if let scanned = text.utf8.withContiguousStorageIfAvailable({ Self.visibleControls($0) }) {
            visible = scanned
        } else {
            visible = Self.visibleControls(Array(text.utf8))
        }
        if let visible { text = visible }
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<newline]))
                if pending.last == 0x0D { pending.removeLast() }
                completeLine(into: &out)
                start = newline + 1
            }
            if start < bytes.count {
                let rest = UnsafeBufferPointer(rebasing: bytes[start...])
                pending.append(contentsOf: rest)
                // Only a space can settle more of the line (a word ends there).
                if !unsettled, memchr(base + start, 0x20, bytes.count - start) != nil { unsettled = true }
            }
        }
    }

    /// `settle()` (see MarkdownRenderer+Output), into the buffer.
    mutating func settle(into out: inout RenderBuffer) {
        guard unsettled else { return }
        unsettled = false
        streamPending(into: &out)
    }

    /// `finish()` (see MarkdownRenderer+Output), into the buffer.
    mutating func finish(into out: inout RenderBuffer) {
        unstage()
        // A carriage return at the very end is a line ending whose line feed never came.
        if pending.last == 0x0D { pending.removeLast() }
        if !pending.isEmpty || streamed != nil { completeLine(into: &out) }
        if table != nil { flushTable(into: &out) }
        if fence != nil { closeFence(into: &out) }
        lists.removeAll()
        afterBlank = true
        afterListText = false
        afterIndentedCode = false
    }

    // MARK: Lines

    mutating func completeLine(into out: inout RenderBuffer) {
        unsettled = false
        unresolvedLength = nil
        // The line's buffer goes back to `pending` afterwards, emptied: no allocation per line.
        var line: [UInt8] = []
        swap(&line, &pending)
        defer {
            line.removeAll(keepingCapacity: true)
            swap(&line, &pending)
        }
        if let (started, shownUpTo) = streamed {
            streamed = nil
            add(line, shownUpTo..<line.count, style: started.style, into: &out)
            wrapper.endLine(into: &out)
            noteText(started)
            return
        }
        render(line, into: &out)
    }

    mutating func render(_ line: [UInt8], into out: inout RenderBuffer) {
        if fence != nil {
            codeLine(line, into: &out)
            return
        }
        var kind = classify(line)
        if table != nil {
            if case .tableRow = kind {
                table?.append(line)
                return
            }
            // The table ends here; what follows is classified after it (the table closes open lists).
            flushTable(into: &out)
            kind = classify(line)
        }
        switch kind {
        case .blank:
            out.append(0x0A)
            afterBlank = true
            afterListText = false
            afterIndentedCode = false
            return
        case .fence(let indent, let marker, let count, let info):
            openFence(indent: indent, marker: marker, count: count, info: line[info], into: &out)
        case .tableRow:
            table = [line]
        case .rule:
            lists.removeAll()
            out.append(contentsOf: horizontalRule)
        case .indentedCode(let start):
            var code = Array(line[start...])
            if code.contains(0x09) { code = Self.tabsExpanded(code) }
            emitCode(
                code, [SyntaxHighlighter.Token(range: 0..<code.count, style: TextStyle(code: true))], indent: 4,
                into: &out)
            afterBlank = false
            afterListText = false
            afterIndentedCode = true
            return
        case .text(let text):
            begin(text, into: &out)
            add(line, text.contentStart..<line.count, style: text.style, into: &out)
            wrapper.endLine(into: &out)
            noteText(text)
            return
        }
        afterBlank = false
        afterListText = false
        afterIndentedCode = false
    }

    /// A text line's prefix written and the list state changed, as the line begins.
    mutating func begin(_ text: TextLine, into out: inout RenderBuffer) {
        switch text.list {
        case .keep: break
        case .clear: lists.removeAll()
        case .item(let level, let keeping):
            lists.removeLast(max(0, lists.count - keeping))
            lists.append(level)
        }
        wrapper.startLine(prefix: text.prefix, hanging: text.hanging, into: &out)
    }

    mutating func noteText(_ text: TextLine) {
        afterBlank = false
        afterIndentedCode = false
        afterListText = !lists.isEmpty
    }

    /// Inline content `range` of `line` placed on the current line.
    mutating func add(_ line: [UInt8], _ range: Range<Int>, style: TextStyle, into out: inout RenderBuffer) {
        guard !range.isEmpty else { return }
        // The runs' array is the last line's, emptied (no allocation per line).
        var parser = InlineMarkdown(line, colors: options.colors, hyperlinks: options.hyperlinks)
        swap(&parser.text.runs, &runStorage)
        parser.parse(range, style: style)
        wrapper.add(parser.text, into: &out)
        swap(&parser.text.runs, &runStorage)
        runStorage.removeAll(keepingCapacity: true)
    }

    /// Shows the settled part of the unfinished line: a text line whose kind cannot change any more, up to
    /// its last space before which nothing is left open.
    mutating func streamPending(into out: inout RenderBuffer) {
        guard fence == nil, table == nil else { return }
        unstage()
        var line = pending
        // A carriage return at the end may be half of a CRLF: the line is looked at without it.
        if line.last == 0x0D { line.removeLast() }
        // A line whose openers are still open is looked at again only once it has grown by half since the
        // last look (each look parses it from what is shown): a long line of unclosed `*` or `[` costs a
        // few parses, not one per network read. The output is the same, shown later.
        if let length = unresolvedLength, line.count < length + length / 2 { return }
        unresolvedLength = nil
        var started = streamed
        if started == nil {
            // Hold a line until its kind is settled: a word and a space after where its text starts, and
            // not only rule characters (`- - -` is a rule, `- x` an item).
            guard case .text(let text) = classify(line), Self.settled(line, text.contentStart) else { return }
            started = (text, text.contentStart)
        }
        guard let (text, shownUpTo) = started else { return }
        // The last space before which every opener is closed: from the last space, back to the last space
        // before the first opener left open, until nothing is (one parse per step, not one per space).
        var cut = line.count
        var opened = false
        // The runs of what is shown, from the parse that found it resolved (not parsed again to show it).
        var resolved = StyledText()
        var found = false
        while cut > shownUpTo {
            guard let space = line[shownUpTo..<cut].lastIndex(where: { $0 == 0x20 }) else { break }
            cut = space
            guard cut > shownUpTo else { break }
            // The runs' array is the last line's, emptied (no allocation, and no growing, per look).
            var parser = InlineMarkdown(line, colors: options.colors, hyperlinks: options.hyperlinks)
            swap(&parser.text.runs, &runStorage)
            parser.parse(shownUpTo..<cut, style: text.style)
            guard let open = parser.firstUnresolvedAt else {
                // (Moved out, not copied: its runs' array goes back to `runStorage` unshared.)
                swap(&resolved, &parser.text)
                found = true
                break
            }
            swap(&parser.text.runs, &runStorage)
            runStorage.removeAll(keepingCapacity: true)
            opened = true
            cut = open
        }
        if opened, line.count - shownUpTo > 4096 { unresolvedLength = line.count }
        guard found else { return }
        if streamed == nil { begin(text, into: &out) }
        streamed = (text, cut)
        wrapper.add(resolved, into: &out)
        swap(&resolved.runs, &runStorage)
        runStorage.removeAll(keepingCapacity: true)
    }

    static func settled(_ line: [UInt8], _ contentStart: Int) -> Bool {
        guard contentStart < line.count, line[contentStart...].contains(where: { $0 != 0x20 }),
            line[contentStart...].dropFirst().contains(0x20)
        else { return false }
        return line.contains { ![UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), 0x20, 0x09].contains($0) }
    }
}
