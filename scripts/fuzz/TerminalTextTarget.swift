// libFuzzer target: the terminal cleaner (Sources/Untrusted/TerminalText*.swift), built by scripts/fuzz.sh
// with those sources alone. Any bytes, read as UTF-8 (invalid sequences become U+FFFD, as a server's text
// does): the cleaned text holds no ESC, no C0 control but tab and line feed (so no bare or trailing CR), no
// DEL, no C1 control (CSI U+009B and OSC U+009D among them) and no bidirectional override; cleaning it again
// changes nothing; and text that needed no cleaning comes back unchanged. Also through interpolation, and
// on one line (`cleanSingleLine`: no line feed or tab either).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminalText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let cleaned = TerminalText.clean(text)
    check(cleaned)
    precondition(TerminalText.clean(cleaned) == cleaned, "cleaning twice changed the text")
    precondition(TerminalText.isClean(cleaned), "isClean disagrees with clean")
    if TerminalText.isClean(text) { precondition(cleaned == text, "clean text was changed") }
    let line = TerminalText.cleanSingleLine(text)
    check(line)
    precondition(!line.utf8.contains(0x0A) && !line.utf8.contains(0x09), "a line feed or a tab survived on one line")
    let prompt: TerminalText = "Run f(\(text))? [y/N] "
    check(String(prompt.text.dropFirst(6).dropLast(9)))
    return 0
}

func check(_ cleaned: String) {
    for byte in cleaned.utf8 {
        precondition(byte != 0x1B, "ESC survived")
        precondition(byte != 0x0D, "CR survived")
        precondition(byte >= 0x20 || byte == 0x09 || byte == 0x0A, "a C0 control survived")
        precondition(byte != 0x7F, "DEL survived")
    }
    for scalar in cleaned.unicodeScalars {
        precondition(!(0x80...0x9F).contains(scalar.value), "a C1 control survived")
        precondition(
            !(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value),
            "a bidi override survived")
    }
}
