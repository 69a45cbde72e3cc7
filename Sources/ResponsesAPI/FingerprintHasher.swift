/// `LongStrings.fingerprint` computed over bytes that arrive in pieces: fed the raw JSON bytes of a text's
/// deltas one after another, it gives the fingerprint their concatenation has in one piece (the same two
/// lanes over the same eight-byte words, the same tail and length). A final event's long string is then
/// recognised as the deltas' text by one pass over its bytes, without keeping the deltas.
public struct FingerprintHasher: Sendable, Hashable {
    private var first: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var second: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    /// Bytes not yet a whole word, little-endian (as a word is loaded), and how many.
    private var partial: UInt64 = 0
    private var partialCount = 0
    /// Every byte fed so far.
    public private(set) var count = 0

    public init() {}

    private mutating func mix(_ word: UInt64) {
        first = (first ^ word) &* 0xFF51_AFD7_ED55_8CCD
        first ^= first >> 32
        second = (second &+ word) &* 0xC4CE_B9FE_1A85_EC53
        second = (second << 31) | (second >> 33)
    }

    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        count += bytes.count
        var offset = 0
        // Complete a word begun by the previous piece.
        while partialCount > 0, partialCount < 8, offset < bytes.count {
            partial |= UInt64(base[offset]) << (8 * UInt64(partialCount))
            partialCount += 1
            offset += 1
        }
        if partialCount == 8 {
            mix(partial)
            partial = 0
            partialCount = 0
        }
        let pointer = UnsafeRawPointer(base)
        while offset + 8 <= bytes.count {
            mix(pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            offset += 8
        }
        while offset < bytes.count {
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
        var first = first
        var second = second
        // The tail as `fingerprint` folds it: first byte most significant.
        var tail: UInt64 = 0
        for position in 0..<partialCount {
            tail = (tail << 8) | ((partial >> (8 * UInt64(position))) & 0xFF)
        }
        let length = UInt64(count)
        first = (first ^ tail ^ length) &* 0xFF51_AFD7_ED55_8CCD
        second = (second &+ tail &+ length) &* 0xC4CE_B9FE_1A85_EC53
        return LongStrings.Fingerprint(length: count, first: first ^ (first >> 29), second: second ^ (second >> 32))
    }
}
