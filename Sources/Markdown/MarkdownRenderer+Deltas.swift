/// Token-sized deltas: most only add to the unfinished line (no line ends in them and they hold nothing to
/// make visible). Those take a short way there, read in one pass, with no render buffer made for a call
/// that writes nothing: a delta's fixed cost was most of what deltas cost beyond 16 KB pieces.
extension MarkdownRenderer {
    /// The staged bytes of quiet deltas added to the unfinished line: before anything looks at it.
    mutating func unstage() {
        if !staged.isEmpty { staged.move(to: &pending) }
    }

    /// Adds `text` to the unfinished line when that is all feeding it would do: no line feed or carriage
    /// return in it, nothing `visibleControls` replaces, and no carriage return held before it. False, and
    /// nothing done, otherwise (the general way then takes it).
    @inline(__always)
    mutating func joinUnfinishedLine(_ text: String) -> Bool {
        // (Staged bytes are quiet: no carriage return is held when there are any.)
        guard quietPieces, !staged.isEmpty || pending.last != 0x0D else { return false }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            let (quiet, space) = Self.quietScan(bytes)
            guard quiet else { return false }
            if !staged.append(bytes) {
                staged.move(to: &pending)
                if !staged.append(bytes) { pending.append(contentsOf: bytes) }
            }
            // Only a space can settle more of the line (a word ends there).
            if space { unsettled = true }
            return true
        } ?? false
    }

    /// Whether `bytes` are quiet (no line feed, no carriage return, no control character `visibleControls`
    /// replaces) and whether they hold a space. Read as whole words (a delta of under eight bytes as one,
    /// from loads that may overlap, the rest of it ordinary letters); only a byte that may start a control
    /// or end a line is looked at by itself.
    @inline(__always)
    static func quietScan(_ bytes: UnsafeBufferPointer<UInt8>) -> (quiet: Bool, space: Bool) {
        let count = bytes.count
        guard let base = UnsafeRawPointer(bytes.baseAddress), count > 0 else { return (true, false) }
        var spaces: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                let word = ByteScan.load(base, index)
                spaces |= ByteScan.bytes(word, equalTo: 0x20)
                guard Self.quiet(word, at: index, of: bytes) else { return (false, false) }
                index += 8
            }
            if index < count {
                // The last eight bytes, overlapping the word before.
                let word = ByteScan.load(base, count - 8)
                spaces |= ByteScan.bytes(word, equalTo: 0x20)
                guard Self.quiet(word, at: count - 8, of: bytes) else { return (false, false) }
            }
            return (true, spaces != 0)
        }
        let word: UInt64
        if count >= 4 {
            let head = UInt32(littleEndian: base.loadUnaligned(as: UInt32.self))
            let tail = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            word = UInt64(head) | UInt64(tail) << 32
        } else {
            word =
                UInt64(bytes[0]) | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count - 1]) << 16
                | 0x6161_6161_6100_0000
        }
        if !DisplayWidth.isPrintableASCII(word) {
            for index in 0..<count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2,
                    byte == 0x0A || byte == 0x0D || isControl(bytes, index)
                {
                    return (false, false)
                }
            }
        }
        return (true, ByteScan.bytes(word, equalTo: 0x20) != 0)
    }

    /// Whether the eight bytes `word`, at `start` of `bytes`, are quiet: each byte that may start a control
    /// or end a line looked at.
    @inline(__always)
    static func quiet(_ word: UInt64, at start: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !DisplayWidth.isPrintableASCII(word) else { return true }
        var marked = controlCandidates(word) | ByteScan.bytes(word, equalTo: 0x0A)
        while marked != 0 {
            let offset = start + marked.trailingZeroBitCount >> 3
            let byte = bytes[offset]
            if byte == 0x0A || byte == 0x0D || isControl(bytes, offset) { return false }
            marked &= marked &- 1
        }
        return true
    }
}
