/// Colours one line of code at a time from a `LanguageSyntax`: keywords, types, strings, comments and
/// numbers, carrying an open block comment or multi-line string over to the next line. Unknown languages
/// are not coloured. Works on UTF-8 bytes; every delimiter it looks for is ASCII.
struct SyntaxHighlighter: Sendable {
    let language: LanguageSyntax?
    /// The delimiter that closes what the last line left open (`*/`, `"""`, `-->`), if any.
    private var open: (close: [UInt8], style: TextStyle)?
    /// The last line's tokens' storage, reused for the next line (one array per code block, not per line).
    private var spare: [Token] = []

    static let keyword = TextStyle(color: .magenta)
    static let type = TextStyle(color: .cyan)
    static let string = TextStyle(color: .green)
    static let comment = TextStyle(color: .gray)
    static let number = TextStyle(color: .yellow)
    static let key = TextStyle(color: .blue)

    /// A highlighter for `language`; `storage` is a token array to reuse (the last code block's).
    init(language: LanguageSyntax?, reusing storage: [Token] = []) {
        self.language = language
        self.spare = storage
    }

    /// The token array, for the next code block's highlighter (a block is a few lines in some answers).
    mutating func takeStorage() -> [Token] {
        var storage: [Token] = []
        swap(&storage, &spare)
        return storage
    }

    /// The line's tokens (an unknown language's line is one plain token).
    mutating func highlight(_ line: [UInt8]) -> [Token] {
        guard let language, !line.isEmpty else { return [Token(range: 0..<line.count, style: .plain)] }
        switch language.mode {
        case .diff: return [Token(range: 0..<line.count, style: Self.diffStyle(line))]
        // Read through the array's storage: every byte is looked at, without a bounds check each.
        case .markup: return line.withUnsafeBufferPointer { markup($0, language) }
        case .code: return line.withUnsafeBufferPointer { code($0, language) }
        }
    }

    static func diffStyle(_ line: [UInt8]) -> TextStyle {
        if line.starts(with: "+++".utf8) || line.starts(with: "---".utf8) { return TextStyle(bold: true) }
        switch line.first {
        case UInt8(ascii: "+"): return TextStyle(color: .green)
        case UInt8(ascii: "-"): return TextStyle(color: .red)
        case UInt8(ascii: "@"): return TextStyle(color: .cyan)
        default: return .plain
        }
    }

    private mutating func code(_ bytes: UnsafeBufferPointer<UInt8>, _ language: LanguageSyntax) -> [Token] {
        var runs = RunBuilder()
        swap(&runs.tokens, &spare)
        runs.tokens.removeAll(keepingCapacity: true)
        var i = continueOpen(bytes, &runs)
        let plainBytes = language.plainBytes
        let triggers = language.triggers
        while i < bytes.count {
            // Spaces and punctuation: a run of them is one plain token (the word path adds them one by one,
            // each joined onto the last).
            if plainBytes.contains(bytes[i]) {
                var j = i + 1
                while j < bytes.count, plainBytes.contains(bytes[j]) { j += 1 }
                runs.add(i..<j, .plain)
                i = j
                continue
            }
            guard triggers.contains(bytes[i]) else {
                i = word(bytes, i, language, &runs)
                continue
            }
            if language.lineCommentBytes.contains(where: { Self.starts($0, bytes, i) }) {
                runs.add(i..<bytes.count, Self.comment)
                break
            }
            if !language.blockOpen.isEmpty, Self.starts(language.blockOpen, bytes, i) {
                let end = Self.find(language.blockClose, in: bytes, from: i + language.blockOpen.count)
                let stop = end.map { $0 + language.blockClose.count } ?? bytes.count
                runs.add(i..<stop, Self.comment)
                if end == nil { open = (language.blockClose, Self.comment) }
                i = stop
                continue
            }
            if let quote = language.stringDelimiters.first(where: { Self.starts($0.bytes, bytes, i) }) {
                let end = Self.findUnescaped(quote.bytes, in: bytes, from: i + quote.bytes.count)
                let stop = end.map { $0 + quote.bytes.count } ?? bytes.count
                var style = Self.string
                if language.keys, Self.followedByColon(bytes, stop) { style = Self.key }
                runs.add(i..<stop, style)
                if end == nil, quote.multiline { open = (quote.bytes, Self.string) }
                i = stop
                continue
            }
            i = word(bytes, i, language, &runs)
        }
        spare = runs.tokens
        return runs.tokens
    }

    /// A variable, number, keyword, type or other word at `i`, or one other byte; returns where the next
    /// token starts.
    private func word(
        _ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ language: LanguageSyntax, _ runs: inout RunBuilder
    ) -> Int {
        let byte = bytes[i]
        if language.dollarVariables, byte == UInt8(ascii: "$"), i + 1 < bytes.count {
            var j = i + 1
            if bytes[j] == UInt8(ascii: "{") {
                while j < bytes.count, bytes[j] != UInt8(ascii: "}") { j += 1 }
                j = min(j + 1, bytes.count)
            } else {
                while j < bytes.count, Self.isWordByte(bytes[j]) { j += 1 }
            }
            if j > i + 1 {
                runs.add(i..<j, Self.type)
                return j
            }
        }
        if Self.isDigit(byte), i == 0 || !Self.isWordByte(bytes[i - 1]) {
            var j = i + 1
            while j < bytes.count,
                Self.isWordByte(bytes[j])
                    || bytes[j] == UInt8(ascii: ".") && j + 1 < bytes.count && Self.isDigit(bytes[j + 1])
            { j += 1 }
            runs.add(i..<j, Self.number)
            return j
        }
        let identifierBytes = language.identifierBytes
        if identifierBytes.contains(byte) {
            var j = i + 1
            while j < bytes.count, identifierBytes.contains(bytes[j]) { j += 1 }
            if language.keys, Self.followedByColon(bytes, j) {
                runs.add(i..<j, Self.key)
            } else {
                switch language.kind(of: UnsafeBufferPointer(rebasing: bytes[i..<j])) {
                case .keyword: runs.add(i..<j, Self.keyword)
                case .type: runs.add(i..<j, Self.type)
                case nil:
                    runs.add(i..<j, language.capitalizedTypes && byte >= 0x41 && byte <= 0x5A ? Self.type : .plain)
                }
            }
            return j
        }
        runs.add(i..<(i + 1), .plain)
        return i + 1
    }

    /// What the last line left open (a block comment, a multi-line string), up to its end on this line;
    /// returns where the rest of the line starts.
    private mutating func continueOpen(_ bytes: UnsafeBufferPointer<UInt8>, _ runs: inout RunBuilder) -> Int {
        guard let (close, style) = open else { return 0 }
        let end = Self.find(close, in: bytes, from: 0)
        let stop = end.map { $0 + close.count } ?? bytes.count
        runs.add(0..<stop, style)
        if end != nil { open = nil }
        return stop
    }

    /// HTML and XML: tag names as keywords, attribute names as types, values as strings, comments.
    private mutating func markup(_ bytes: UnsafeBufferPointer<UInt8>, _ language: LanguageSyntax) -> [Token] {
        var runs = RunBuilder()
        swap(&runs.tokens, &spare)
        runs.tokens.removeAll(keepingCapacity: true)
        var i = continueOpen(bytes, &runs)
        var inTag = false
        while i < bytes.count {
            if !language.blockOpen.isEmpty, Self.starts(language.blockOpen, bytes, i) {
                let end = Self.find(language.blockClose, in: bytes, from: i)
                let stop = end.map { $0 + language.blockClose.count } ?? bytes.count
                runs.add(i..<stop, Self.comment)
                if end == nil { open = (language.blockClose, Self.comment) }
                i = stop
                continue
            }
            let byte = bytes[i]
            if byte == UInt8(ascii: "<") {
                var j = i + 1
                while j < bytes.count,
                    bytes[j] == UInt8(ascii: "/") || bytes[j] == UInt8(ascii: "!") || bytes[j] == UInt8(ascii: "?")
                { j += 1 }
                while j < bytes.count,
                    Self.isWordByte(bytes[j]) || bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: ":")
                { j += 1 }
                runs.add(i..<(i + 1), .plain)
                runs.add((i + 1)..<j, Self.keyword)
                inTag = true
                i = j
            } else if inTag, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                let end = Self.find(byte, in: bytes, from: i + 1)
                let stop = end.map { $0 + 1 } ?? bytes.count
                runs.add(i..<stop, Self.string)
                i = stop
            } else if inTag, Self.isWordByte(byte) {
                var j = i + 1
                while j < bytes.count,
                    Self.isWordByte(bytes[j]) || bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: ":")
                { j += 1 }
                runs.add(i..<j, Self.type)
                i = j
            } else {
                if byte == UInt8(ascii: ">") { inTag = false }
                runs.add(i..<(i + 1), .plain)
                i += 1
            }
        }
        spare = runs.tokens
        return runs.tokens
    }
}
