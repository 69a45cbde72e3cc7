extension TerminalText {
    /// `text` with every control character made visible (see `TerminalText`). Returns `text` itself, without
    /// copying, when there is nothing to change, which is nearly always.
    public static func clean(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = firstUnsafe(bytes) else { return nil }
            return cleaned(bytes, from: first)
        } ?? text
    }

    /// True when `text` needs no cleaning.
    public static func isClean(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { firstUnsafe($0) == nil }
    }

    /// The offset of the first byte that starts something to clean.
    static func firstUnsafe(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F {
                index += 1
                continue
            }
            if unsafeLength(bytes, at: index) > 0 { return index }
            index += 1
        }
        return nil
    }

    /// How many bytes at `index` form something to clean (0 for none): a C0 control but tab and line feed,
    /// DEL, a C1 control (two bytes), a bidirectional override or isolate (three bytes).
    @inline(__always)
    static func unsafeLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        switch byte {
        case 0x09, 0x0A: return 0
        case 0x00..<0x20, 0x7F: return 1
        case 0xC2:
            return index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]) ? 2 : 0
        case 0xE2:
            guard index + 2 < bytes.count else { return 0 }
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            if second == 0x80 && (0xAA...0xAE).contains(third) { return 3 }  // U+202A–U+202E
            if second == 0x81 && (0xA6...0xA9).contains(third) { return 3 }  // U+2066–U+2069
            return 0
        default: return 0
        }
    }

    static func cleaned(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        result.append(contentsOf: bytes[0..<start])
        var index = start
        while index < bytes.count {
            let length = unsafeLength(bytes, at: index)
            if length == 0 {
                result.append(bytes[index])
                index += 1
                continue
            }
            let byte = bytes[index]
            if length > 1 {
                result.append(contentsOf: replacement)
            } else if byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                // CRLF: the line feed alone ends the line.
            } else {
                result.append(contentsOf: picture(byte))
            }
            index += length
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// U+FFFD as UTF-8.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The Control Pictures block's picture of a C0 control (U+2400 + the byte) or of DEL (U+2421), as UTF-8.
    static func picture(_ byte: UInt8) -> [UInt8] {
        let scalar: UInt32 = byte == 0x7F ? 0x2421 : 0x2400 + UInt32(byte)
        return [0xE0 | UInt8(scalar >> 12), 0x80 | UInt8((scalar >> 6) & 0x3F), 0x80 | UInt8(scalar & 0x3F)]
    }
}
