/// Eight bytes at a time: the tests the renderer's scans are made of. Each marks a byte by its high bit
/// and is exact for every byte (no carry or borrow crosses from one byte into the next), so marks can be
/// combined and the lowest one is the first byte that matched.
enum ByteScan {
    static let high: UInt64 = 0x8080_8080_8080_8080
    static let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The eight bytes at `index` of `base`, the first in the lowest byte.
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, _ index: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The high bit of each zero byte of `word`.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low) &+ low) | word) & high
    }

    /// The high bit of each byte of `word` equal to `byte`.
    @inline(__always)
    static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
    }

    /// The high bit of the first byte of `word` below `lowest` (at most 0x21), DEL or from 0x80 (and perhaps of
    /// later bytes: a borrow only marks bytes above a true mark); zero when every byte is in `lowest`...0x7E.
    @inline(__always)
    static func outsidePrintable(_ word: UInt64, lowest: UInt8) -> UInt64 {
        let below = (word &- 0x0101_0101_0101_0101 &* UInt64(lowest)) & ~word
        let del = word ^ low
        let isDel = (del &- 0x0101_0101_0101_0101) & ~del
        return (word | below | isDel) & high
    }

    /// The index of the first of `a`, `b` or `c` in `bytes[start..<end]`; `end` when there is none.
    static func firstIndex(
        of a: UInt8, _ b: UInt8, _ c: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        var index = start
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= end {
                let word = load(base, index)
                let marked = Self.bytes(word, equalTo: a) | Self.bytes(word, equalTo: b) | Self.bytes(word, equalTo: c)
                if marked != 0 { return index + marked.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end, bytes[index] != a, bytes[index] != b, bytes[index] != c { index += 1 }
        return index
    }
}
