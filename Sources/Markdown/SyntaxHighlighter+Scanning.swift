/// Byte scanning for the highlighter.
extension SyntaxHighlighter {
    /// A piece of the line in one style.
    struct Token: Equatable {
        var range: Range<Int>
        var style: TextStyle
    }

    /// Collects tokens, merging neighbours of one style (the last token's end and style's key kept apart:
    /// a line adds a token for every word and punctuation byte).
    struct RunBuilder {
        var tokens: [Token] = []
        private var lastEnd = -1
        private var lastKey = -1

        @inline(__always)
        mutating func add(_ range: Range<Int>, _ style: TextStyle) {
            guard !range.isEmpty else { return }
            let key = style.key
            if lastEnd == range.lowerBound, lastKey == key, !tokens.isEmpty {
                tokens[tokens.count - 1].range = tokens[tokens.count - 1].range.lowerBound..<range.upperBound
            } else {
                tokens.append(Token(range: range, style: style))
                lastKey = key
            }
            lastEnd = range.upperBound
        }
    }

    /// Whether `bytes` has `prefix` at `index`.
    @inline(__always)
    static func starts(_ prefix: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard index >= 0, prefix.count <= bytes.count - index else { return false }
        return prefix.withUnsafeBufferPointer { prefix in
            for k in 0..<prefix.count where bytes[index + k] != prefix[k] { return false }
            return true
        }
    }

    /// Where `needle` next starts at or after `start` (an empty needle: at `start`, if it is inside).
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first else { return start < bytes.count ? start : nil }
        var i = start
        while i < bytes.count {
            // The first byte compared before the whole needle (a string's or comment's text is mostly not it).
            if bytes[i] == first, starts(needle, bytes, i) { return i }
            i += 1
        }
        return nil
    }

    /// Where the byte `needle` next is at or after `start`.
    static func find(_ needle: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if bytes[i] == needle { return i }
            i += 1
        }
        return nil
    }

    /// Like `find`, skipping what a backslash escapes.
    static func findUnescaped(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first else { return start < bytes.count ? start : nil }
        var i = start
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if byte == first, starts(needle, bytes, i) { return i }
            i += 1
        }
        return nil
    }

    static func followedByColon(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        var i = index
        while i < bytes.count, bytes[i] == 0x20 { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: ":")
            && (i + 1 == bytes.count || bytes[i + 1] == 0x20 || bytes[i + 1] != UInt8(ascii: ":"))
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isWordByte(_ byte: UInt8) -> Bool {
        InlineMarkdown.isAlphanumeric(byte) || byte == UInt8(ascii: "_")
    }
}
