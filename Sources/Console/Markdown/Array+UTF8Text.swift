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

extension Array where Element == UInt8 {
    /// `ESC [ 0 m`, which ends every style (four byte appends: cheaper than a generic append of four).
    mutating func appendReset() {
        append(0x1B)
        append(0x5B)
        append(0x30)
        append(0x6D)
    }

    /// `count` spaces (a generic append of repeated elements goes element by element).
    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        if count <= 2 {
            // One space between words, mostly: appended as a byte.
            append(0x20)
            if count == 2 { append(0x20) }
        } else if count <= spaceBytes.count {
            spaceBytes.withUnsafeBufferPointer { append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
        } else {
            append(contentsOf: repeatElement(0x20, count: count))
        }
    }
}

private let spaceBytes = [UInt8](repeating: 0x20, count: 256)
