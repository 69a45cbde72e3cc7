/// Where two texts part: the UTF-8 byte offset of the first byte that differs, the word (or run of
/// characters) around it on each side, and what kind of thing that word is; a timestamp in a system prompt
/// is the classic cache breaker.
public struct TextDifference: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case timestamp, uuid, number, whitespace, text

        /// ", a timestamp": what the words after a difference say of it; empty for plain text.
        public var words: String {
            switch self {
            case .timestamp: "a timestamp"
            case .uuid: "an identifier (UUID)"
            case .number: "a number"
            case .whitespace: "white space"
            case .text: ""
            }
        }
    }

    /// From 0, in UTF-8 bytes.
    public var offset: Int
    /// The run around the difference in the earlier text and in the later one (at most `runLimit` bytes each).
    public var before: String
    public var after: String
    public var kind: Kind

    static let runLimit = 48

    public init(offset: Int, before: String, after: String, kind: Kind) {
        self.offset = offset
        self.before = before
        self.after = after
        self.kind = kind
    }

    init(_ a: String, _ b: String) {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var offset = 0
        while offset < x.count, offset < y.count, x[offset] == y[offset] { offset += 1 }
        // The offset of the character that differs, not of its second byte (é and ë share their first).
        while offset > 0, offset < x.count, Self.isContinuation(x[offset]) { offset -= 1 }
        // The run starts where the word holding the first difference starts (the bytes before it are the same
        // on both sides), and never inside a multi-byte character.
        // (Only when the difference is in a word: a text that goes on past the other's end starts its run there.)
        var start = offset
        let inWord = [x, y].contains { offset < $0.count && Self.isWordByte($0[offset]) }
        while inWord, start > 0, offset - start < Self.runLimit / 2, Self.isWordByte(x[start - 1]) { start -= 1 }
        while start > 0, start < x.count, Self.isContinuation(x[start]) { start -= 1 }
        let before = Self.run(x, from: start, past: offset)
        let after = Self.run(y, from: start, past: offset)
        self.init(offset: offset, before: before, after: after, kind: Self.kind(before, after, x, y, offset))
    }

    /// The bytes from `start` to the end of the word holding `offset` (at least a few bytes when the
    /// difference is not in a word), cut at a character boundary.
    private static func run(_ bytes: [UInt8], from start: Int, past offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - start < runLimit, isWordByte(bytes[end]) { end += 1 }
        if end == offset { end = min(bytes.count, offset + 12) }
        while end < bytes.count, end > start, isContinuation(bytes[end]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "/"), 0x80...0xFF:
            true
        default: false
        }
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private static func kind(_ before: String, _ after: String, _ x: [UInt8], _ y: [UInt8], _ offset: Int) -> Kind {
        let sides = [before, after]
        if sides.contains(where: looksLikeTime) { return .timestamp }
        if sides.allSatisfy(looksLikeUUID) { return .uuid }
        let differing = [offset < x.count ? x[offset] : nil, offset < y.count ? y[offset] : nil].compactMap { $0 }
        if differing.contains(where: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .whitespace }
        if sides.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") } }) {
            return .number
        }
        return .text
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A date (2026-11-28), a time of day (10:14, 10:14:03) or a Unix time in seconds or milliseconds.
    static func looksLikeTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.allSatisfy { bytes.indices.contains($0) && isDigit(bytes[$0]) }
        }
        for start in bytes.indices {
            if digits(start..<start + 4), start + 9 < bytes.count, bytes[start + 4] == bytes[start + 7],
                [UInt8(ascii: "-"), UInt8(ascii: "/")].contains(bytes[start + 4]), digits(start + 5..<start + 7),
                digits(start + 8..<start + 10)
            {
                return true
            }
            if digits(start..<start + 2), start + 4 < bytes.count, bytes[start + 2] == UInt8(ascii: ":"),
                digits(start + 3..<start + 5)
            {
                return true
            }
        }
        return (bytes.count == 10 || bytes.count == 13) && bytes.allSatisfy(isDigit)
            && (bytes.first == UInt8(ascii: "1") || bytes.first == UInt8(ascii: "2"))
    }

    static func looksLikeUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        let hex = { (part: Substring) in part.utf8.allSatisfy { isDigit($0) || (0x61...0x66).contains($0 | 0x20) } }
        if groups.map(\.count) == [8, 4, 4, 4, 12] { return groups.allSatisfy(hex) }
        return text.utf8.count == 32 && hex(Substring(text))
    }
}
