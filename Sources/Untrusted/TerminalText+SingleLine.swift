extension TerminalText {
    /// Untrusted text shown on one line: cleaned as `clean` does, and also a line feed as ␊ and a tab as ␉,
    /// and a run of more than `longestRun` spaces as `␠×N`, so that neither line feeds nor a long run of
    /// spaces can push what precedes it off the screen or out of sight (an approval prompt's arguments).
    public init(singleLine untrusted: some StringProtocol) {
        self.init(composed: Self.cleanSingleLine(String(untrusted)))
    }

    public static let longestRun = 8

    public static func cleanSingleLine(_ text: String) -> String {
        let cleaned = clean(text)
        guard cleaned.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 || $0 == 0x20 }) else { return cleaned }
        var result: [UInt8] = []
        result.reserveCapacity(cleaned.utf8.count + 8)
        var spaces = 0
        func flushSpaces() {
            if spaces > longestRun {
                result.append(contentsOf: Array("␠×\(spaces)".utf8))
            } else {
                result.append(contentsOf: repeatElement(0x20, count: spaces))
            }
            spaces = 0
        }
        for byte in cleaned.utf8 {
            if byte == 0x20 {
                spaces += 1
                continue
            }
            flushSpaces()
            switch byte {
            case 0x0A: result.append(contentsOf: picture(0x0A))
            case 0x09: result.append(contentsOf: picture(0x09))
            default: result.append(byte)
            }
        }
        flushSpaces()
        return String(decoding: result, as: UTF8.self)
    }
}
