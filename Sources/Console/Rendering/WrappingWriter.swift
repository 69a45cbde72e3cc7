/// Word-wraps streamed text at a width, a delta at a time. The word being written is held until the
/// space or newline after it arrives (or `flush`), so a break never splits it; ANSI escape sequences take
/// no columns. With no width, text passes through untouched. Text goes into a buffer the caller writes out.
struct WrappingWriter: Sendable {
    let width: Int?
    /// The column the cursor is at (0 at the start of a line).
    private(set) var column = 0
    private var word = ""
    private var wordWidth = 0
    private var pendingSpaces = 0
    private var inEscape = false

    init(width: Int?) {
        self.width = width
    }

    mutating func write(_ text: String, into output: inout String) {
        guard let width else {
            writeUnwrapped(text, into: &output)
            return
        }
        var out = ""
        for character in text {
            if inEscape {
                word.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            switch character {
            case "\u{1B}":
                inEscape = true
                word.append(character)
            case "\n":
                out += takeWord(width: width)
                pendingSpaces = 0
                out += "\n"
                column = 0
            case " ":
                out += takeWord(width: width)
                pendingSpaces += 1
            default:
                word.append(character)
                wordWidth += 1
            }
        }
        if !out.isEmpty { output += out }
    }

    /// Writes `text` as is (markers, timeline lines), after whatever is held.
    mutating func writeUnwrapped(_ text: String, into output: inout String) {
        guard width != nil else {
            // Plain text: only whether the cursor is at the start of a line matters.
            output += text
            if let last = text.utf8.last { column = last == 0x0A ? 0 : 1 }
            return
        }
        var out = width.map { takeWord(width: $0) } ?? ""
        if width != nil, pendingSpaces > 0 {
            out += String(repeating: " ", count: pendingSpaces)
            column += pendingSpaces
            pendingSpaces = 0
        }
        out += text
        if let newline = text.lastIndex(of: "\n") {
            column = Self.visibleWidth(text[text.index(after: newline)...])
        } else {
            column += Self.visibleWidth(text[...])
        }
        if !out.isEmpty { output += out }
    }

    /// Writes the word held back.
    mutating func flush(into output: inout String) {
        guard let width else { return }
        let out = takeWord(width: width)
        if !out.isEmpty { output += out }
    }

    /// Moves to the start of a new line unless already there.
    mutating func endLine(into output: inout String) {
        flush(into: &output)
        pendingSpaces = 0
        if column > 0 {
            output += "\n"
            column = 0
        }
    }

    private mutating func takeWord(width: Int) -> String {
        guard !word.isEmpty else { return "" }
        var out = ""
        if wordWidth > 0, column > 0, column + pendingSpaces + wordWidth > width {
            out = "\n"
            column = 0
        } else if pendingSpaces > 0 {
            out = String(repeating: " ", count: pendingSpaces)
            column += pendingSpaces
        }
        pendingSpaces = 0
        out += word
        column += wordWidth
        word = ""
        wordWidth = 0
        return out
    }

    static func visibleWidth(_ text: Substring) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
