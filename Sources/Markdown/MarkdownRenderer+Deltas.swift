/// Token-sized deltas: most only add to the unfinished line (no line ends in them and they hold nothing to
/// make visible). Those take a short way there, read in one pass, with no render buffer made for a call
/// that writes nothing: a delta's fixed cost was most of what deltas cost beyond 16 KB pieces.
extension MarkdownRenderer {
    /// Adds `text` to the unfinished line when that is all feeding it would do: no line feed or carriage
    /// return in it, nothing `visibleControls` replaces, and no carriage return held before it. False, and
    /// nothing done, otherwise (the general way then takes it).
    mutating func joinUnfinishedLine(_ text: String) -> Bool {
        guard quietPieces, pending.last != 0x0D else { return false }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            let (quiet, space) = Self.quietScan(bytes)
            guard quiet else { return false }
            pending.append(contentsOf: bytes)
            // Only a space can settle more of the line (a word ends there).
            if space { unsettled = true }
            return true
        } ?? false
    }

    /// Whether `bytes` are quiet (no line feed, no carriage return, no control character `visibleControls`
    /// replaces) and whether they hold a space: eight bytes at a time, only a byte that may start a control
    /// or end a line looked at.
    static func quietScan(_ bytes: UnsafeBufferPointer<UInt8>) -> (quiet: Bool, space: Bool) {
        var index = 0
        var spaces: UInt64 = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= bytes.count {
                let word = ByteScan.load(base, index)
                spaces |= ByteScan.bytes(word, equalTo: 0x20)
                if !DisplayWidth.isPrintableASCII(word) {
                    var marked = controlCandidates(word) | ByteScan.bytes(word, equalTo: 0x0A)
                    while marked != 0 {
                        let offset = index + marked.trailingZeroBitCount >> 3
                        let byte = bytes[offset]
                        if byte == 0x0A || byte == 0x0D || isControl(bytes, offset) { return (false, false) }
                        marked &= marked &- 1
                    }
                }
                index += 8
            }
        }
        var space = spaces != 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 {
                space = true
            } else if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 {
                if byte == 0x0A || byte == 0x0D || isControl(bytes, index) { return (false, false) }
            }
            index += 1
        }
        return (true, space)
    }
}
