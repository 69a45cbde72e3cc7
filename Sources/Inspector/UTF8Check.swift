/// UTF-8 validation without building a String (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF). Sixteen bytes at a time: a block of ASCII after a whole character is passed on a test of its
/// two words; any other is checked at once, each byte against the three before it: a continuation byte
/// exactly where one of them is a lead that asks for it, and a lead's second byte in the lead's range. Byte
/// by byte, multi-byte text (CJK, emoji) took about three cycles a byte, 8 % of a 50 MB answer's CPU in the
/// recorder. ASCII runs eight bytes at a time with a block from each other byte switched between the two at
/// every multi-byte word of mixed text; blocks in place throughout take a fifth fewer instructions on it.
enum UTF8Check {
    typealias Block = SIMD16<UInt8>

    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let count = bytes.count
        // The first block padded (it has no three bytes before it), then blocks of sixteen: one of ASCII
        // after a whole character is passed with a test of its two words; any other is checked, each byte
        // against the three before it. (Running ASCII eight bytes at a time and a block from each other
        // byte, text with a multi-byte word every few words switched between the two at every word.)
        guard checkPadded(base, count: count, at: 0) else { return false }
        var index = 16
        // After a block of ASCII nothing is asked for: the bytes before the next need no look.
        var afterASCII = false
        while index + 16 <= count {
            let raw = UnsafeRawPointer(base + index)
            let ascii =
                (raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                & 0x8080_8080_8080_8080 == 0
            if !ascii || (!afterASCII && expectsContinuation(base, at: index)) {
                guard
                    check(
                        raw.loadUnaligned(as: Block.self), raw.loadUnaligned(fromByteOffset: -1, as: Block.self),
                        raw.loadUnaligned(fromByteOffset: -2, as: Block.self),
                        raw.loadUnaligned(fromByteOffset: -3, as: Block.self))
                else { return false }
            }
            afterASCII = ascii
            index += 16
        }
        if index < count, !checkPadded(base, count: count, at: index) { return false }
        // A sequence cut short by the end: its lead asks for bytes that are not there.
        return !expectsContinuation(base, at: count)
    }

    /// Whether the bytes just before `index` (a lead and its continuations so far) ask for a continuation byte
    /// at `index`.
    @inline(__always)
    static func expectsContinuation(_ base: UnsafePointer<UInt8>, at index: Int) -> Bool {
        (index >= 1 && base[index - 1] >= 0xC0) || (index >= 2 && base[index - 2] >= 0xE0)
            || (index >= 3 && base[index - 3] >= 0xF0)
    }

    /// The block at `index` where it or the three bytes before it run past the buffer: copied between zeros.
    static func checkPadded(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Bool {
        var padded = (Block.zero, Block.zero, Block.zero)
        return withUnsafeMutableBytes(of: &padded) { scratch in
            // scratch[16 + k] is the byte at index + k; bytes outside the buffer stay zero.
            for k in -3..<16 where index + k >= 0 && index + k < count {
                scratch[16 + k] = base[index + k]
            }
            let raw = UnsafeRawPointer(scratch.baseAddress!) + 16
            return check(
                raw.loadUnaligned(as: Block.self), raw.loadUnaligned(fromByteOffset: -1, as: Block.self),
                raw.loadUnaligned(fromByteOffset: -2, as: Block.self),
                raw.loadUnaligned(fromByteOffset: -3, as: Block.self))
        }
    }

    /// True when every byte of `current` agrees with the bytes one, two and three before it.
    @inline(__always)
    static func check(_ current: Block, _ first: Block, _ second: Block, _ third: Block) -> Bool {
        let continuation = current & 0xC0 .== Block(repeating: 0x80)
        let expected =
            first .>= Block(repeating: 0xC0) .| second .>= Block(repeating: 0xE0)
            .| third .>= Block(repeating: 0xF0)
        // Bytes that never appear, and second bytes outside their lead's range (overlong forms, surrogates,
        // code points above U+10FFFF).
        let impossible =
            current .>= Block(repeating: 0xF5) .| current .== Block(repeating: 0xC0)
            .| current .== Block(repeating: 0xC1)
        let outOfRange =
            (first .== Block(repeating: 0xE0) .& current .< Block(repeating: 0xA0))
            .| (first .== Block(repeating: 0xED) .& current .>= Block(repeating: 0xA0))
            .| (first .== Block(repeating: 0xF0) .& current .< Block(repeating: 0x90))
            .| (first .== Block(repeating: 0xF4) .& current .>= Block(repeating: 0x90))
        return !anySet((continuation .^ expected) .| impossible .| outOfRange)
    }

    /// `any(mask)` as its two 64-bit halves or-ed (each lane is all ones or all zeros): the standard library's
    /// `any` reduces the lanes through a call to `min()`, some 30 instructions a block, a third of the check
    /// on multi-byte text.
    @inline(__always)
    static func anySet(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }
}
