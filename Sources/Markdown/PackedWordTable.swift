/// A language's keywords and types of up to eight bytes, each packed into a number
/// (`LanguageSyntax.pack`), in an open-addressing table with a multiplicative hash: a lookup is a
/// multiplication, a shift and a comparison or two (a `Dictionary` hashes each key with SipHash, and the
/// highlighter looks up every identifier of every line).
struct PackedWordTable: Sendable {
    /// Keys, a power of two of them, `0` for an empty slot (no packed word is zero: words are not empty).
    private let keys: [UInt64]
    private let kinds: [LanguageSyntax.WordKind?]
    private let shift: UInt64

    init(_ words: [(UInt64, LanguageSyntax.WordKind)]) {
        // At most half full, so that probes stay short.
        var bits = 4
        while 1 << bits < words.count * 2 { bits += 1 }
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var kinds = [LanguageSyntax.WordKind?](repeating: nil, count: 1 << bits)
        let shift = UInt64(64 - bits)
        for (key, kind) in words where key != 0 {
            var slot = Self.slot(key, shift)
            while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            kinds[slot] = kind
        }
        self.keys = keys
        self.kinds = kinds
        self.shift = shift
    }

    @inline(__always)
    private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: UInt64) -> LanguageSyntax.WordKind? {
        var slot = Self.slot(key, shift)
        while true {
            let found = keys[slot]
            if found == key { return kinds[slot] }
            if found == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }
}
