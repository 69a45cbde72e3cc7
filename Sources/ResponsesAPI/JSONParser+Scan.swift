/// Finding the next byte a JSON string cannot hold as it is (`"`, `\` or a control character) sixteen bytes
/// at a time: a long text delta is mostly plain bytes between rare escapes, and a byte at a time its decoding
/// was a tenth of a 50 MB answer's CPU. The vector is tested as the 64-bit words are (`zeroBytes`), with
/// bitwise operations and a wrapping add, no comparison: here this compiler turned `.==` and `.<` on the
/// vector into a loop over its sixteen lanes (ten times the instructions of the eight-byte scan).
extension JSONParser {
    /// The index of the first `"`, `\` or byte below 0x20 in `base[from..<end]`, or `end`.
    @inline(__always)
    static func firstSpecial(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        var index = from
        while index + 16 <= end {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let marks =
                zeroLanes(block ^ SIMD16(repeating: 0x22)) | zeroLanes(block ^ SIMD16(repeating: 0x5C))
                | zeroLanes(block & SIMD16(repeating: 0xE0))
            let words = unsafeBitCast(marks, to: SIMD2<UInt64>.self)
            if words[0] != 0 { return index + (UInt64(littleEndian: words[0]).trailingZeroBitCount >> 3) }
            if words[1] != 0 { return index + 8 + (UInt64(littleEndian: words[1]).trailingZeroBitCount >> 3) }
            index += 16
        }
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let marks =
                zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                | zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0)
            if marks != 0 { return index + (UInt64(littleEndian: marks).trailingZeroBitCount >> 3) }
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
        return end
    }

    /// `zeroBytes` lane by lane: 0x80 in each lane of `block` that is zero, 0 in the others.
    @inline(__always)
    static func zeroLanes(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let low = SIMD16<UInt8>(repeating: 0x7F)
        return ~(((block & low) &+ low) | block | low)
    }

    /// 0x80 in each byte of `word` that is zero, 0 in the others: exact, as no addition carries across bytes.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low) &+ low) | word | low)
    }
}
