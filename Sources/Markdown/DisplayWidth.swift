/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji take two,
/// combining marks and zero-width characters none, ANSI escape sequences none, everything else one.
/// (The terminal's own `wcwidth` differs between systems; this follows Unicode's East Asian Width and
/// emoji presentation, which is what current terminals do.)
enum DisplayWidth {
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F, scalars.count == 1 { return first.value < 0x20 ? 0 : 1 }
        // An emoji sequence (flags, skin tones, ZWJ families, VS16) is two columns.
        for scalar in scalars {
            if scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation { return 2 }
        }
        return of(first)
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, and the emoji blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
            0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
            0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F900...0x1F9FF,
            0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The width of `text`, ANSI escape sequences (CSI and OSC) taking none.
    static func of(_ text: Substring) -> Int {
        var width = 0
        var escape = Escape.none
        for character in text {
            switch escape {
            case .none:
                if character == "\u{1B}" { escape = .start } else { width += of(character) }
            case .start:
                escape = character == "]" ? .osc : character == "[" ? .csi : .none
            case .csi:
                if character.isLetter { escape = .none }
            case .osc:
                // Ends at BEL or ST (ESC \); the ESC of ST is taken here, its backslash ignored below.
                if character == "\u{07}" { escape = .none } else if character == "\u{1B}" { escape = .oscEnd }
            case .oscEnd:
                escape = .none
            }
        }
        return width
    }

    static func of(_ text: String) -> Int { of(text[...]) }

    /// The width of UTF-8 text: ASCII (escape sequences skipped) counted byte by byte, and the scalars that
    /// are each a character of one column wherever they stand (`simple`) decoded from the bytes; anything
    /// else (wide, combining, emoji, invalid) character by character, over the whole text.
    static func of<Bytes: Collection>(utf8 bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        // Printable ASCII (most text): a column a byte, eight bytes at a time.
        if let ascii = bytes.withContiguousStorageIfAvailable({ printableASCIICount($0) }), let ascii { return ascii }
        var width = 0
        var escape = Escape.none
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            if byte >= 0x80 {
                guard escape == .none, let (scalar, next) = scalar(byte, bytes, index), let scalarWidth = simple(scalar)
                else {
                    return of(String(decoding: bytes, as: UTF8.self))
                }
                width += scalarWidth
                index = next
                continue
            }
            switch escape {
            case .none:
                if byte == 0x1B { escape = .start } else if byte >= 0x20 && byte < 0x7F { width += 1 }
            case .start:
                escape = byte == UInt8(ascii: "]") ? .osc : byte == UInt8(ascii: "[") ? .csi : .none
            case .csi:
                if InlineMarkdown.isLetter(byte) { escape = .none }
            case .osc:
                if byte == 0x07 { escape = .none } else if byte == 0x1B { escape = .oscEnd }
            case .oscEnd:
                escape = .none
            }
        }
        return width
    }

    /// Whether each of eight bytes is printable ASCII (0x20–0x7E): none below 0x20, none 0x7F, none from 0x80.
    static func isPrintableASCII(_ word: UInt64) -> Bool {
        ByteScan.outsidePrintable(word, lowest: 0x20) == 0
    }

    /// The index of the first byte at or after `start` that is not printable ASCII above the space (a space,
    /// a control byte, DEL or a byte of a multi-byte scalar); `bytes.count` when there is none.
    static func nextNonWordByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return start }
        var index = start
        while index + 8 <= bytes.count {
            // The lowest byte marked is the first that is not a word's.
            let marked = ByteScan.outsidePrintable(ByteScan.load(base, index), lowest: 0x21)
            if marked != 0 { return index + marked.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < bytes.count, bytes[index] > 0x20, bytes[index] < 0x7F { index += 1 }
        return index
    }

    /// `bytes.count` when every byte is printable ASCII (0x20–0x7E); nil otherwise.
    static func printableASCIICount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return 0 }
        var index = 0
        while index + 8 <= bytes.count {
            guard isPrintableASCII(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return nil }
            index += 8
        }
        while index < bytes.count {
            guard bytes[index] >= 0x20, bytes[index] < 0x7F else { return nil }
            index += 1
        }
        return bytes.count
    }

    /// The width of a scalar that is a character by itself wherever it stands (no grapheme cluster can
    /// join it to its neighbours unless they are not simple, and it is not an emoji): Latin-1 and the Latin
    /// extensions up to the combining marks, dashes, quotes and bullets, arrows, mathematical operators, box
    /// drawing and blocks (one column); CJK punctuation, kana, ideographs, Hangul syllables and fullwidth
    /// forms (two; none of them a mark, and the jamo and kana voicing marks that join them are not simple).
    /// Nil for every other scalar.
    static func simple(_ value: UInt32) -> Int? {
        switch value {
        case 0xAD: return 0
        case 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x22FF, 0x2500...0x259F: return 1
        case 0x3000...0x3029, 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FE, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7A3, 0xFF01...0xFF60:
            return 2
        default: return nil
        }
    }

    /// Whether every character of `bytes` is one scalar one column wide (printable ASCII, spaces
    /// included, or a `simple` scalar other than the soft hyphen): such text can be cut anywhere between
    /// scalars, each counted as one column, without decoding characters.
    static func isNarrow(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte < 0x80 {
                guard byte >= 0x20, byte < 0x7F else { return false }
                continue
            }
            guard let (value, next) = scalar(byte, bytes, index), simple(value) == 1 else { return false }
            index = next
        }
        return true
    }

    /// The length in bytes of the scalar a well-formed UTF-8 lead byte starts.
    static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// The scalar whose UTF-8 lead byte is `lead` and whose continuation bytes start at `index`, and the
    /// index after it; nil when the bytes are not well formed (or the scalar is beyond three bytes).
    private static func scalar<Bytes: Collection>(_ lead: UInt8, _ bytes: Bytes, _ index: Bytes.Index) -> (
        UInt32, Bytes.Index
    )?
    where Bytes.Element == UInt8 {
        let count: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF:
            count = 1
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            count = 2
            value = UInt32(lead & 0x0F)
        default: return nil
        }
        var index = index
        for _ in 0..<count {
            guard index != bytes.endIndex else { return nil }
            let next = bytes[index]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
            bytes.formIndex(after: &index)
        }
        // Overlong three-byte forms and surrogates are not well formed.
        if count == 2, value < 0x800 || (0xD800...0xDFFF).contains(value) { return nil }
        return (value, index)
    }

    private enum Escape { case none, start, csi, osc, oscEnd }
}
