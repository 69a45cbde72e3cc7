/// Text the renderer makes: control characters made visible, and the spaces and rules every line asks for.
extension MarkdownRenderer {
    /// The text with the control characters a model might send (escape sequences, bells, a bare carriage
    /// return) shown as their Unicode pictures (␛, ␇, ␍) instead of reaching the terminal, which they could
    /// restyle, clear or make write the clipboard; the C1 controls (U+0080–U+009F, which some terminals take
    /// as ESC sequences: U+009B is a CSI) and the bidirectional overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069) shown as U+FFFD, the same rule as Untrusted's TerminalText; nil when there are none.
    /// Tabs, line feeds and a carriage return before a line feed (or at the end, where the next piece
    /// decides) stay.
    public static func visibleControls(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func c1(_ index: Int) -> Bool { Self.isC1(bytes, index) }
        func bidi(_ index: Int) -> Bool { Self.isBidi(bytes, index) }
        func control(_ index: Int) -> Bool { Self.isControl(bytes, index) }
        // Most text has no byte that could be one: eight bytes at a time, only a byte that may start one
        // (a control byte other than a tab or a line feed, DEL, 0xC2) looked at.
        var index = 0
        var found = false
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            scan: while index + 8 <= bytes.count {
                let word = ByteScan.load(base, index)
                // Printable ASCII (most words): the quicker test says so.
                if DisplayWidth.isPrintableASCII(word) {
                    index += 8
                    continue
                }
                var marked = Self.controlCandidates(word)
                while marked != 0 {
                    let offset = index + marked.trailingZeroBitCount >> 3
                    if control(offset) {
                        index = offset
                        found = true
                        break scan
                    }
                    marked &= marked &- 1
                }
                index += 8
            }
            if !found {
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2, control(index) {
                        found = true
                        break
                    }
                    index += 1
                }
            }
        }
        guard found else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        index = 0
        while index < bytes.count {
            if c1(index) || bidi(index) {
                result.append(contentsOf: [0xEF, 0xBF, 0xBD])
                index += bytes[index] == 0xC2 ? 2 : 3
                continue
            }
            if control(index) { result.append(contentsOf: picture(bytes[index])) } else { result.append(bytes[index]) }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A C1 control's two bytes in UTF-8 at `index` (0xC2 is never a continuation byte).
    @inline(__always)
    static func isC1(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        bytes[index] == 0xC2 && index + 1 < bytes.count && bytes[index + 1] >= 0x80 && bytes[index + 1] <= 0x9F
    }

    /// A bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069) at `index`, three bytes in UTF-8:
    /// it could reorder what the line shows.
    @inline(__always)
    static func isBidi(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard bytes[index] == 0xE2, index + 2 < bytes.count else { return false }
        let second = bytes[index + 1]
        let third = bytes[index + 2]
        return (second == 0x80 && third >= 0xAA && third <= 0xAE) || (second == 0x81 && third >= 0xA6 && third <= 0xA9)
    }

    /// Whether the character at `index` is one `visibleControls` replaces.
    @inline(__always)
    static func isControl(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        let byte = bytes[index]
        if byte == 0x0D { return index + 1 < bytes.count && bytes[index + 1] != 0x0A }
        return (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || isC1(bytes, index)
            || isBidi(bytes, index)
    }

    /// The high bit of each byte of `word` that may start a control character: below 0x20 but not a tab or a
    /// line feed, DEL, or 0xC2 (a C1 control's first byte).
    @inline(__always)
    static func controlCandidates(_ word: UInt64) -> UInt64 {
        let control =
            ByteScan.zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0) & ~ByteScan.bytes(word, equalTo: 0x09) & ~ByteScan.bytes(
                word, equalTo: 0x0A)
        return control | ByteScan.bytes(word, equalTo: 0x7F) | ByteScan.bytes(word, equalTo: 0xC2)
            | ByteScan.bytes(word, equalTo: 0xE2)
    }

    static func visibleControls(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { visibleControls($0) }
    }

    /// U+2400 + the byte for C0 controls, U+2421 for DEL, as UTF-8.
    static func picture(_ byte: UInt8) -> [UInt8] {
        Array(String(Character(Unicode.Scalar(byte == 0x7F ? 0x2421 : 0x2400 + UInt32(byte))!)).utf8)
    }
}

extension MarkdownRenderer {
    /// Each tab as four spaces, byte by byte (a string's replacement goes by characters, and a tab followed
    /// by a combining mark or a variation selector is one character with it, so it stayed).
    static func tabsExpanded(_ code: [UInt8]) -> [UInt8] {
        var expanded: [UInt8] = []
        expanded.reserveCapacity(code.count + 12)
        for byte in code {
            if byte == 0x09 { expanded.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) } else { expanded.append(byte) }
        }
        return expanded
    }
}
