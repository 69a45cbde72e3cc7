/// Text from a range of UTF-8 bytes without the generic decoding path (which copies a slice byte by byte).
extension Array where Element == UInt8 {
    func text(_ range: Range<Int>) -> String {
        withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func text(from start: Int) -> String { text(start..<count) }
}

/// Appending a string's UTF-8 bytes, as the renderer writes its output.
extension Array where Element == UInt8 {
    static func += (bytes: inout [UInt8], text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
