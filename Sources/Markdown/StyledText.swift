/// Inline text parsed into styled runs: the bytes the runs are ranges of (the line that was parsed,
/// shared rather than copied, and after it any text the parse added: a link's ` (url)`, an image's
/// `[image: `), the runs in order, and the link targets they name.
///
/// A run is a plain value (a range, a style, an index): making, copying and freeing runs costs no
/// reference counting, which, when each run held a slice of its line and a link string, was a tenth of
/// the renderer's time.
struct StyledText: Sendable {
    var bytes: [UInt8]
    var runs: [StyledRun] = []
    var links: [String] = []

    init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Runs of whole strings, one after another (tests; text made outside a parse).
    init(_ pieces: [(String, TextStyle)]) {
        self.bytes = []
        for (text, style) in pieces { append(text, style) }
    }

    /// `text` added after the bytes, as a run of its own in `style`.
    mutating func append(_ text: String, _ style: TextStyle) {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        runs.append(StyledRun(range: start..<bytes.count, style: style))
    }

    /// ` (text)` added after the bytes, as a run of its own in `style` (a link's target shown after it).
    mutating func append(parenthesized text: String, _ style: TextStyle) {
        let start = bytes.count
        bytes.append(0x20)
        bytes.append(UInt8(ascii: "("))
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: ")"))
        runs.append(StyledRun(range: start..<bytes.count, style: style))
    }

    /// Whether the text of runs `range` is `other`, as strings compare (canonically equivalent): equal bytes
    /// are, unequal ones are not when both are ASCII; anything else is compared as strings.
    func text(_ range: Range<Int>, equals other: String) -> Bool {
        var other = other
        let (sameBytes, ascii) = other.withUTF8 { target -> (Bool, Bool) in
            var offset = 0
            var ascii = true
            var same = true
            bytes.withUnsafeBufferPointer { bytes in
                for index in range {
                    let piece = runs[index].range
                    for at in piece {
                        if bytes[at] >= 0x80 { ascii = false }
                        if same, offset < target.count, target[offset] == bytes[at] {
                            offset += 1
                        } else {
                            same = false
                        }
                    }
                }
            }
            return (same && offset == target.count, ascii && !target.contains { $0 >= 0x80 })
        }
        if sameBytes { return true }
        if ascii { return false }
        return text(range) == other
    }

    /// The link target of `run` (nil when it is not a link).
    func link(_ run: StyledRun) -> String? {
        run.link < 0 ? nil : links[Int(run.link)]
    }

    /// The text of runs `range`, one after another.
    func text(_ range: Range<Int>) -> String {
        var result = ""
        for index in range { result += bytes.text(runs[index].range) }
        return result
    }
}

/// A piece of text in one style: a range of its `StyledText`'s bytes.
struct StyledRun: Hashable, Sendable {
    var range: Range<Int>
    var style: TextStyle
    /// The index of the link's target in the text's `links` (shown as an OSC 8 hyperlink where the
    /// terminal takes them); -1 when the run is not a link.
    var link: Int32 = -1
}
