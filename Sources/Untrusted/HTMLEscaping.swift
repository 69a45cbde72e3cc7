/// Text made safe for HTML element content and for quoted attribute values, one Unicode scalar at a time.
/// (Escaping by `Character` let a quote followed by a combining mark through: `"` + U+0301 is one
/// `Character`, not equal to `"`, so it came out raw and ended the attribute.)
public enum HTMLEscaping {
    /// `&`, `<`, `>`, `"` and `'` as character references; C0 controls other than tab, line feed and carriage
    /// return, and DEL, which HTML does not allow in text, as U+FFFD. Everything else as it is.
    public static func escape(_ text: String) -> String {
        var needed = false
        for byte in text.utf8
        where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
            || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D)
            || byte == 0x7F
        {
            needed = true
            break
        }
        guard needed else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            case "\t", "\n", "\r": result.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result.append("\u{FFFD}")
                } else {
                    result.append(scalar)
                }
            }
        }
        return String(result)
    }
}
