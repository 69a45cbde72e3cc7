/// Links, images, `<...>` (autolinks and `<br>`), bare URLs, and byte classes.
extension InlineMarkdown {
    /// `[text](url)` or `![alt](url)` at `index`: the index after it, or nil when it is not one (a `[`
    /// with no `]` on the line, or a `](` with no `)`, leaves the parse unresolved). The text from
    /// `textStart` up to it goes first.
    mutating func link(at index: Int, end: Int, style: TextStyle, textFrom textStart: Int) -> Int? {
        let image = bytes[index] == UInt8(ascii: "!")
        let open = image ? index + 1 : index
        guard open < end, bytes[open] == UInt8(ascii: "[") else { return nil }
        var depth = 0
        var j = open
        var close: Int?
        while j < end {
            switch bytes[j] {
            case UInt8(ascii: "\\"): j += 1
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { close = j }
            default: break
            }
            if close != nil { break }
            j += 1
        }
        guard let close else {
            markUnresolved(at: index)
            return nil
        }
        // `[1]` and `[text]` not followed by `(`: literal.
        guard close + 1 < end, bytes[close + 1] == UInt8(ascii: "(") else { return nil }
        var k = close + 2
        var parens = 1
        while k < end {
            if bytes[k] == UInt8(ascii: "(") { parens += 1 }
            if bytes[k] == UInt8(ascii: ")") {
                parens -= 1
                if parens == 0 { break }
            }
            if Self.isSpace(bytes[k]) && parens == 1 && k == close + 2 { break }
            k += 1
        }
        guard k < end, bytes[k] == UInt8(ascii: ")") else {
            markUnresolved(at: index)
            return nil
        }
        // The target, without a title (`(url "title")`) or angle brackets.
        var lower = close + 2
        var upper = bytes[lower..<k].firstIndex(of: 0x20) ?? k
        if upper - lower >= 2, bytes[lower] == UInt8(ascii: "<"), bytes[upper - 1] == UInt8(ascii: ">") {
            lower += 1
            upper -= 1
        }
        let target = bytes.text(lower..<upper)
        appendText(textStart, index, style)
        // The link's text parsed into runs of its own (nothing before it is joined on: the `[` is between).
        let first = text.runs.count
        if image { text.append("[image: ", style) }
        parse((open + 1)..<close, style: style)
        if image { text.append("]", style) }
        linkRuns(from: first, url: target, style: style)
        return k + 1
    }

    /// `<br>` (a line break), `<https://...>` (an autolink), at `index`; nil for anything else (other HTML
    /// stays as written). A `<` with no `>` on the line leaves the parse unresolved.
    mutating func angle(at index: Int, end: Int, style: TextStyle, textFrom textStart: Int) -> Int? {
        var j = index + 1
        while j < end, bytes[j] != UInt8(ascii: ">") {
            if bytes[j] == UInt8(ascii: "<") { return nil }
            j += 1
        }
        guard j < end else {
            markUnresolved(at: index)
            return nil
        }
        // Looked at as bytes: most `<` in an answer are neither (comparisons, generics, other tags).
        let inside = bytes[(index + 1)..<j]
        if Self.isBreak(inside) {
            appendText(textStart, index, style)
            text.append("\n", style)
            return j + 1
        }
        // An autolink: the bytes rule most out, the text decides (Foundation's search: a combining mark after
        // `:` or a space makes another character of it, a joiner or a spacing mark does not).
        if Self.contains(inside, "://") || inside.starts(with: "mailto:".utf8) {
            let url = String(decoding: inside, as: UTF8.self)
            // ASCII (nearly every URL): its characters are its bytes, which said it already.
            let ascii = inside.allSatisfy { $0 < 0x80 }
            if ascii ? !inside.contains(0x20) : !url.contains(" ") && (url.contains("://") || url.hasPrefix("mailto:"))
            {
                appendText(textStart, index, style)
                let first = text.runs.count
                text.runs.append(StyledRun(range: (index + 1)..<j, style: style))
                linkRuns(from: first, url: url, style: style)
                return j + 1
            }
        }
        return nil
    }

    /// The end of a bare `http://` or `https://` URL at `index` (GFM's extended autolinks): up to
    /// whitespace or `<`, without trailing punctuation or an unbalanced `)`.
    func bareURL(at index: Int, end: Int) -> Int? {
        func starts(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count < end else { return false }
            let start = prefix.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }
        let prefix = starts("https://") ? 8 : starts("http://") ? 7 : 0
        guard prefix > 0 else { return nil }
        var j = index + prefix
        while j < end, !Self.isSpace(bytes[j]), bytes[j] != UInt8(ascii: "<") { j += 1 }
        while j > index + prefix {
            let last = bytes[j - 1]
            if Self.trailingPunctuation.contains(last) {
                j -= 1
            } else if last == UInt8(ascii: ")") {
                let opened = bytes[index..<j].filter { $0 == UInt8(ascii: "(") }.count
                let closed = bytes[index..<j].filter { $0 == UInt8(ascii: ")") }.count
                if closed > opened { j -= 1 } else { break }
            } else {
                break
            }
        }
        return j > index + prefix ? j : nil
    }

    /// `br` or `br/`, in any case, spaces anywhere (`<br>`, `<BR />`).
    static func isBreak(_ tag: ArraySlice<UInt8>) -> Bool {
        var letters = 0
        for byte in tag where byte != 0x20 {
            let expected: UInt8 =
                letters == 0 ? UInt8(ascii: "b") : letters == 1 ? UInt8(ascii: "r") : UInt8(ascii: "/")
            guard letters < 3, byte | 0x20 == expected | 0x20 else { return false }
            letters += 1
        }
        return letters >= 2
    }

    static func contains(_ bytes: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = needle.utf8Start
        return (bytes.startIndex...(bytes.endIndex - count)).contains { at in
            (0..<count).allSatisfy { bytes[at + $0] == start[$0] }
        }
    }

    static let trailingPunctuation: [UInt8] = Array(".,:;!?\"'*_~".utf8)

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// ASCII letters and digits, and every non-ASCII byte (letters of other scripts are word characters).
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
    }

    static func isPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }
}
