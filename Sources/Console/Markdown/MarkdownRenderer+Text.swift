/// Text the renderer makes: control characters made visible, and the spaces and rules every line asks for.
extension MarkdownRenderer {
    /// The text with the control characters a model might send (escape sequences, bells, a bare carriage
    /// return) shown as their Unicode pictures (␛, ␇, ␍) instead of reaching the terminal, which they could
    /// restyle, clear or make write the clipboard; nil when there are none. Tabs, line feeds and a carriage
    /// return before a line feed (or at the end, where the next piece decides) stay.
    static func visibleControls(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func control(_ index: Int) -> Bool {
            let byte = bytes[index]
            if byte == 0x0D { return index + 1 < bytes.count && bytes[index + 1] != 0x0A }
            return (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F
        }
        guard bytes.indices.contains(where: control) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for index in bytes.indices {
            if control(index) { result.append(contentsOf: picture(bytes[index])) } else { result.append(bytes[index]) }
        }
        return String(decoding: result, as: UTF8.self)
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
    /// `count` copies of `piece` (spaces and rules are asked for on every line: the common ones are made once).
    static func repeated(_ piece: String, _ count: Int) -> String {
        if piece == " ", count < spaces.count { return spaces[count] }
        return String(repeating: piece, count: max(count, 0))
    }

    static let spaces = (0..<64).map { String(repeating: " ", count: $0) }
}
