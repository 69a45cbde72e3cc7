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

    /// The width of UTF-8 text: ASCII (escape sequences skipped) counted byte by byte, anything else
    /// character by character.
    static func of<Bytes: Collection>(utf8 bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var width = 0
        var escape = Escape.none
        for byte in bytes {
            if byte >= 0x7F { return of(String(decoding: bytes, as: UTF8.self)) }
            switch escape {
            case .none:
                if byte == 0x1B { escape = .start } else if byte >= 0x20 { width += 1 }
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

    private enum Escape { case none, start, csi, osc, oscEnd }
}
