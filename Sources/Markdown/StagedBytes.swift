/// The bytes of the last quiet deltas, held in the renderer itself (64 bytes inline, no allocation) until
/// the unfinished line is next looked at, then added to it at once: an array's append costs about ninety
/// instructions a call, more than all the rest of a token-sized delta's way.
struct StagedBytes: Sendable {
    static let capacity = 64
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds `bytes` when they fit; false, and nothing added, when they do not.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let source = bytes.baseAddress else { return true }
        let at = count
        guard at + bytes.count <= Self.capacity else { return false }
        withUnsafeMutableBytes(of: &storage) { raw in
            RenderBuffer.copy(source, to: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + at, count: bytes.count)
        }
        count = at + bytes.count
        return true
    }

    /// The staged bytes appended to `array`, and the stage emptied.
    mutating func move(to array: inout [UInt8]) {
        guard count > 0 else { return }
        let length = count
        withUnsafeBytes(of: &storage) { raw in
            array.append(
                contentsOf: UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length))
        }
        count = 0
    }
}
