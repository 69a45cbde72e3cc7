/// Text from a range of UTF-8 bytes without the generic decoding path (which copies a slice byte by byte).
extension Array where Element == UInt8 {
    func text(_ range: Range<Int>) -> String {
        withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func text(from start: Int) -> String { text(start..<count) }
}
