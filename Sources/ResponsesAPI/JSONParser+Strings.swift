/// Strings: a run without escapes taken whole, escapes decoded straight into the new string's storage, and
/// a long string the stream has decoded before found again by its bytes (`LongStrings`).
extension JSONParser {
    /// Parses a string starting at its opening quote; a long one the stream has decoded before is found
    /// again by its bytes (`LongStrings`) instead.
    mutating func parseString() throws(JSONParseError) -> String {
        if let limit = stringPrefix {
            let open = index
            try skipString()
            let raw = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<(index - 1)])
            if raw.count > limit { return try Self.prefix(of: raw, limit: limit) }
            index = open
            return try decodeString()
        }
        // Only a string that may be long is looked for (an event shorter than the threshold holds none): the
        // hot path decodes every other string in one pass, as without long strings.
        guard let longStrings, bytes.count - index > longStrings.threshold else { return try decodeString() }
        let open = index
        try skipString()
        let raw = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<(index - 1)])
        guard raw.count >= longStrings.threshold else {
            index = open
            return try decodeString()
        }
        let fingerprint = LongStrings.fingerprint(raw)
        if longStrings.repeats(fingerprint, at: open + 1) { return "" }
        if let known = longStrings[fingerprint] { return known }
        index = open
        let text = try decodeString()
        longStrings[fingerprint] = text
        return text
    }

    /// Decodes a string starting at its opening quote. Runs without escapes are taken whole.
    mutating func decodeString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        let base = bytes.baseAddress!
        var start = index
        // Fast path: no escape at all (the common case, and every long text delta).
        index = Self.firstSpecial(base, from: index, to: bytes.count)
        guard index < bytes.count else { throw error("unterminated string", at: open) }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
            index += 1
            return text
        }
        if byte < 0x20 { throw error("control character \(Self.describe(byte)) in a string") }
        // Slow path: the string's end first, then its bytes with the escapes decoded, written straight into
        // the new string's storage (never longer than the raw bytes: each escape is longer than what it
        // stands for), so a long text full of line breaks is not built twice.
        let firstEscape = index
        index = open
        try skipString()
        let close = index - 1
        index = firstEscape
        var failure: JSONParseError?
        let text = String(unsafeUninitializedCapacity: close - start) { out in
            var count = 0
            func put(_ byte: UInt8) {
                out[count] = byte
                count += 1
            }
            func put(scalar: UInt32) {
                for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { put(byte) }
            }
            func copyRun(to end: Int) {
                UnsafeMutableRawPointer(out.baseAddress! + count).copyMemory(from: base + start, byteCount: end - start)
                count += end - start
            }
            do throws(JSONParseError) {
                while index < close {
                    // Between here and the closing quote only a backslash or a control character stops the scan.
                    index = Self.firstSpecial(base, from: index, to: close)
                    guard index < close else { break }
                    let byte = bytes[index]
                    if byte < 0x20 { throw error("control character \(Self.describe(byte)) in a string") }
                    copyRun(to: index)
                    index += 1
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): put(0x22)
                    case UInt8(ascii: "\\"): put(0x5C)
                    case UInt8(ascii: "/"): put(0x2F)
                    case UInt8(ascii: "b"): put(0x08)
                    case UInt8(ascii: "f"): put(0x0C)
                    case UInt8(ascii: "n"): put(0x0A)
                    case UInt8(ascii: "r"): put(0x0D)
                    case UInt8(ascii: "t"): put(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try parseHex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            // A high surrogate: a low one must follow to make one scalar.
                            if index + 1 < close, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            {
                                index += 2
                                let low = try parseHex4()
                                if (0xDC00..<0xE000).contains(low) {
                                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                } else {
                                    put(scalar: 0xFFFD)
                                    scalar = low
                                }
                            } else {
                                scalar = 0xFFFD
                            }
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            scalar = 0xFFFD
                        }
                        put(scalar: scalar)
                    default:
                        throw error("invalid escape '\\\(Self.describe(escape))' in a string", at: index - 2)
                    }
                    start = index
                }
                copyRun(to: close)
            } catch {
                failure = error
                return 0
            }
            return count
        }
        if let failure { throw failure }
        index = close + 1
        return text
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit \(Self.describe(byte)) in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The first `limit` bytes (or fewer) of a string's raw bytes, decoded: cut before a scalar or an escape
    /// the limit falls inside.
    static func prefix(of raw: UnsafeBufferPointer<UInt8>, limit: Int) throws(JSONParseError) -> String {
        var end = limit
        while end > 0, raw[end] & 0xC0 == 0x80 { end -= 1 }
        var index = 0
        while index < end {
            guard raw[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            let length = index + 1 < raw.count && raw[index + 1] == UInt8(ascii: "u") ? 6 : 2
            if index + length > end {
                end = index
                break
            }
            index += length
        }
        var quoted = [UInt8](repeating: UInt8(ascii: "\""), count: end + 2)
        quoted.withUnsafeMutableBufferPointer { out in
            _ = UnsafeMutableBufferPointer(rebasing: out[1..<(end + 1)]).initialize(
                from: UnsafeBufferPointer(rebasing: raw[..<end]))
        }
        return try quoted.withUnsafeBufferPointer { buffer throws(JSONParseError) -> String in
            var parser = JSONParser(bytes: buffer)
            return try parser.decodeString()
        }
    }
}
