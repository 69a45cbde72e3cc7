/// The fingerprint of a long string's raw JSON bytes (`LongStrings.Fingerprint`: length and 128 bits),
/// computed over bytes that may arrive in pieces: fed the raw bytes of a text's deltas one after another,
/// it gives the fingerprint their concatenation has in one piece. A final event's long string is then
/// recognised as the deltas' text by one pass over its bytes, without keeping the deltas.
///
/// Four 64-bit lanes, each taking every fourth eight-byte word (independent multiply chains, so a pass
/// runs at several bytes per cycle), folded together with the tail and the length at the end. Not
/// cryptographic. The inspector stores fingerprints (`event_batch.repeats`): this function must not change.
public struct FingerprintHasher: Sendable {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5
    )
    /// Whole words not yet a block of four, and how many.
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var wordCount = 0
    /// Bytes not yet a whole word, little-endian (as a word is loaded), and how many.
    private var partial: UInt64 = 0
    private var partialCount = 0
    /// Every byte fed so far.
    public private(set) var count = 0

    public init() {}

    private static let k1: UInt64 = 0xFF51_AFD7_ED55_8CCD
    private static let k2: UInt64 = 0xC4CE_B9FE_1A85_EC53

    @inline(__always) private static func mixOdd(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let product = (lane ^ word) &* k1
        return product ^ (product >> 32)
    }

    @inline(__always) private static func mixEven(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let product = (lane &+ word) &* k2
        return (product << 31) | (product >> 33)
    }

    @inline(__always) private mutating func block(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        lanes = (
            Self.mixOdd(lanes.0, w0), Self.mixEven(lanes.1, w1), Self.mixOdd(lanes.2, w2), Self.mixEven(lanes.3, w3)
        )
    }

    /// A whole word, after the words waiting before it.
    private mutating func word(_ word: UInt64) {
        switch wordCount {
        case 0: words.0 = word
        case 1: words.1 = word
        case 2: words.2 = word
        default:
            block(words.0, words.1, words.2, word)
            wordCount = 0
            return
        }
        wordCount += 1
    }

    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let total = bytes.count
        count += total
        var offset = 0
        // Finish a word begun by the previous piece, then the words before a block boundary.
        if partialCount > 0 {
            while partialCount < 8, offset < total {
                partial |= UInt64(base[offset]) << (8 * UInt64(partialCount))
                partialCount += 1
                offset += 1
            }
            guard partialCount == 8 else { return }
            word(partial)
            partial = 0
            partialCount = 0
        }
        let pointer = UnsafeRawPointer(base)
        while wordCount > 0, offset + 8 <= total {
            word(pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            offset += 8
        }
        // Whole blocks straight from the bytes: the hot loop.
        if wordCount == 0 {
            var (l0, l1, l2, l3) = lanes
            while offset + 32 <= total {
                l0 = Self.mixOdd(l0, pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
                l1 = Self.mixEven(l1, pointer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
                l2 = Self.mixOdd(l2, pointer.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
                l3 = Self.mixEven(l3, pointer.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
                offset += 32
            }
            lanes = (l0, l1, l2, l3)
        }
        while offset + 8 <= total {
            word(pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            offset += 8
        }
        while offset < total {
            partial |= UInt64(base[offset]) << (8 * UInt64(partialCount))
            partialCount += 1
            offset += 1
        }
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// The fingerprint of everything fed so far (the hasher can go on being fed).
    public func finalize() -> LongStrings.Fingerprint {
        var (l0, l1, l2, l3) = lanes
        // The waiting words go to their lanes, the tail (first byte most significant) and the length to all.
        if wordCount > 0 { l0 = Self.mixOdd(l0, words.0) }
        if wordCount > 1 { l1 = Self.mixEven(l1, words.1) }
        if wordCount > 2 { l2 = Self.mixOdd(l2, words.2) }
        var tail: UInt64 = 0
        for position in 0..<partialCount {
            tail = (tail << 8) | ((partial >> (8 * UInt64(position))) & 0xFF)
        }
        let length = UInt64(count)
        func rotate(_ value: UInt64, _ by: UInt64) -> UInt64 { (value << by) | (value >> (64 - by)) }
        var first = (l0 ^ rotate(l1, 23) ^ rotate(l2, 41) ^ rotate(l3, 53) ^ tail ^ length) &* Self.k1
        first ^= first >> 29
        var second = (l2 &+ rotate(l3, 23) &+ rotate(l0, 41) &+ rotate(l1, 53) &+ tail &+ length) &* Self.k2
        second ^= second >> 32
        return LongStrings.Fingerprint(length: count, first: first, second: second)
    }
}
