/// One word for a shell, quoted one byte at a time. (`replacingOccurrences(of: "'", ...)` compares
/// `Character`s, and `'` followed by a combining mark is one `Character`: the quote stayed unescaped, ended
/// the word, and what followed ran as a command when the dump was pasted.)
public enum ShellQuoting {
    /// `text` as one word that bash, zsh and ksh give back byte for byte. In single quotes, each `'` byte as
    /// `'\''`; a word holding a control byte (C0 but tab and line feed, DEL, or a C1 control's two bytes) is
    /// written as `$'…'` with those bytes as `\xHH` instead, so that pasting it into a terminal never puts a
    /// raw control there (an ESC could end bracketed paste and type what follows). A NUL byte, which no word
    /// can hold, is left out.
    public static func quote(_ text: String) -> String {
        let bytes = Array(text.utf8)
        if bytes.indices.contains(where: { isControl(bytes, at: $0) }) { return ansiC(bytes) }
        var quoted: [UInt8] = [UInt8(ascii: "'")]
        quoted.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "'"): quoted.append(contentsOf: Array("'\\''".utf8))
            case 0: continue
            default: quoted.append(byte)
            }
        }
        quoted.append(UInt8(ascii: "'"))
        return String(decoding: quoted, as: UTF8.self)
    }

    static func isControl(_ bytes: [UInt8], at index: Int) -> Bool {
        let byte = bytes[index]
        if byte == 0 || byte == 0x09 || byte == 0x0A { return false }
        if byte < 0x20 || byte == 0x7F { return true }
        return byte == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1])
    }

    /// `$'…'`: `\\` and `\'` for the backslash and the quote, `\xHH` for every control byte (a C1 control's
    /// lead byte too), the rest as it is.
    static func ansiC(_ bytes: [UInt8]) -> String {
        var quoted: [UInt8] = Array("$'".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "'") {
                quoted.append(contentsOf: [UInt8(ascii: "\\"), byte])
            } else if isControl(bytes, at: index) || byte == 0x09 || byte == 0x0A {
                let count = byte == 0xC2 ? 2 : 1
                for escaped in bytes[index..<(index + count)] {
                    quoted.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(escaped >> 4)], hex[Int(escaped & 0xF)],
                    ])
                }
                index += count
                continue
            } else {
                quoted.append(byte)
            }
            index += 1
        }
        quoted.append(UInt8(ascii: "'"))
        return String(decoding: quoted, as: UTF8.self)
    }
}
