#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON parser (RFC 8259) straight from bytes to `JSONValue`, keeping object keys in the order they
/// arrived. Foundation's decoders lose that order and cost several times more on the long strings a
/// streamed answer carries; this one scans strings without copying until it meets an escape.
///
/// Lenient where leniency loses nothing: invalid UTF-8 inside a string becomes U+FFFD, a duplicate key
/// keeps its first position and its last value. Strict where a mistake would hide a bug: trailing
/// garbage, unterminated values and nesting deeper than `maximumDepth` are errors with a position.
struct JSONParser {
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The stream's long strings, when the caller keeps them (see `LongStrings`).
    var longStrings: LongStrings?
    /// Strings longer than this many bytes as written are kept as their first bytes only (`parse(_:stringPrefix:)`).
    var stringPrefix: Int?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, stringPrefix: Int? = nil) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: buffer)
        parser.stringPrefix = stringPrefix
        parser.skipWhitespace()
        // A leading byte-order mark is tolerated.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { parser.index = 3 }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses only the top-level fields of a JSON object that `wanted` names (returning the key to `store`
    /// the value under, or nil to skip the value without building it). For the hot path of a stream: an event's
    /// typed fields are read without building what no one reads (log probabilities, padding, unknowns).
    ///
    /// `interned` may turn a string value's raw bytes (when they hold no escapes) into a shared string, so
    /// values that repeat in every event (the event type) are not allocated again and again.
    static func parseFields<Key>(
        _ buffer: UnsafeBufferPointer<UInt8>, wanted: (UnsafeBufferPointer<UInt8>) -> Key?,
        interned: ((Key, UnsafeBufferPointer<UInt8>) -> String?)? = nil,
        longStrings: LongStrings? = nil,
        store: (Key, JSONValue) -> Void
    ) throws(JSONParseError) {
        var parser = JSONParser(bytes: buffer)
        parser.longStrings = longStrings
        parser.skipWhitespace()
        guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else {
            throw parser.error("expected an object")
        }
        parser.index += 1
        parser.skipWhitespace()
        if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "}") { return }
        while true {
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") else {
                throw parser.error("expected a string key")
            }
            let keyStart = parser.index + 1
            try parser.skipString()
            let rawKey = UnsafeBufferPointer(rebasing: buffer[keyStart..<(parser.index - 1)])
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: ":") else {
                throw parser.error("expected ':'")
            }
            parser.index += 1
            parser.skipWhitespace()
            if let key = wanted(rawKey) {
                if let interned, parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") {
                    let start = parser.index + 1
                    try parser.skipString()
                    let raw = UnsafeBufferPointer(rebasing: buffer[start..<(parser.index - 1)])
                    if raw.count <= 256, !raw.contains(UInt8(ascii: "\\")), let shared = interned(key, raw) {
                        store(key, .string(shared))
                    } else {
                        parser.index = start - 1
                        store(key, try parser.parseValue(depth: 1))
                    }
                } else {
                    store(key, try parser.parseValue(depth: 1))
                }
            } else {
                try parser.skipValue(depth: 1)
            }
            parser.skipWhitespace()
            guard parser.index < buffer.count else { throw parser.error("unexpected end of input in an object") }
            switch buffer[parser.index] {
            case UInt8(ascii: ","): parser.index += 1
            case UInt8(ascii: "}"):
                parser.index += 1
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.error("unexpected data after the JSON value") }
                return
            default: throw parser.error("expected ',' or '}' in an object")
            }
        }
    }

    /// Moves past a string (at its opening quote) without decoding it: memchr from quote to quote, each
    /// quote ending the string unless an odd run of backslashes stands before it, so a long string is crossed
    /// at memchr's speed however many escapes (line breaks) it holds.
    mutating func skipString() throws(JSONParseError) {
        let open = index
        let base = bytes.baseAddress!
        let count = bytes.count
        var from = index + 1
        while from < count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), count - from) {
            let quote = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            var backslashes = 0
            while quote - backslashes - 1 > open, base[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 {
                index = quote + 1
                return
            }
            from = quote + 1
        }
        throw error("unterminated string", at: open)
    }

    /// Moves past any value, checking its structure but building nothing.
    mutating func skipValue(depth: Int) throws(JSONParseError) {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == close {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                if close == UInt8(ascii: "}") {
                    try skipString()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    skipWhitespace()
                }
                try skipValue(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == close {
                    index += 1
                    return
                } else {
                    throw error("unexpected character \(Self.describe(bytes[index]))")
                }
            }
        default:
            _ = try parseValue(depth: depth)
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index, in: bytes)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character \(Self.describe(bytes[index])), expected a value")
        }
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}

/// Bytes that are not JSON, with where: byte offset, and line and column (both from 1).
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var line: Int
    public var column: Int

    init(message: String, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.message = message
        self.offset = offset
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        self.line = line
        self.column = offset - lineStart + 1
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
