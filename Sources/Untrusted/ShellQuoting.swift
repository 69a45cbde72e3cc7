/// One word for a POSIX shell, quoted one byte at a time. (`replacingOccurrences(of: "'", ...)` compares
/// `Character`s, and `'` followed by a combining mark is one `Character`: the quote stayed unescaped, ended
/// the word, and what followed ran as a command when the dump was pasted.)
public enum ShellQuoting {
    /// `text` in single quotes, each `'` byte written as `'\''`. A NUL byte, which no shell word can hold,
    /// is left out (a shell would cut the word there).
    public static func quote(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "'")]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "'"): bytes.append(contentsOf: Array("'\\''".utf8))
            case 0: continue
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "'"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
