/// A set of byte values as a table of 256 flags, read without a bounds check (the highlighter and the
/// inline parser ask it for nearly every byte they read; bits in four words, picked by a jump or by
/// conditional moves, took more instructions than this one load).
struct ByteSet: Sendable {
    private var table = [Bool](repeating: false, count: 256)

    init() {}

    init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { insert(byte) }
    }

    /// The bytes `member` says are in.
    init(where member: (UInt8) -> Bool) {
        for byte in 0...255 where member(UInt8(byte)) { insert(UInt8(byte)) }
    }

    mutating func insert(_ byte: UInt8) {
        table[Int(byte)] = true
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        // The table has 256 entries: any byte is inside it.
        table.withUnsafeBufferPointer { $0[Int(byte)] }
    }
}
