import Testing

@testable import Markdown

/// The renderer's eight-bytes-at-a-time scans held to a byte-by-byte reading of the same rule: every byte
/// value at every position of a word, with ordinary text around it and after it, and random buffers.
@Suite("Byte scans")
struct ByteScanTests {
    /// The first byte at or after `start` that is not printable ASCII above the space, one byte at a time.
    static func naiveNextNonWordByte(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] > 0x20, bytes[index] < 0x7F { index += 1 }
        return index
    }

    /// What `visibleControls` must find, one byte at a time: whether any control it replaces is there.
    static func naiveHasControl(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] != 0x0A { return true }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
            if byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
        }
        return false
    }

    /// Buffers of ordinary text with one byte set to `value` at `position`, at lengths around a word's.
    static func cases(_ value: UInt8) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for length in [1, 7, 8, 9, 16, 23] {
            for position in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = value
                result.append(bytes)
                // A second, different byte after it: the scan must stop at the first.
                if position + 1 < length {
                    bytes[position + 1] = 0x20
                    result.append(bytes)
                    bytes[position + 1] = 0x80
                    result.append(bytes)
                }
            }
        }
        return result
    }

    @Test func nextNonWordByteStopsWhereTheByteByByteReadingStops() {
        for value in UInt8.min...UInt8.max {
            for bytes in Self.cases(value) {
                for start in 0..<min(bytes.count, 3) {
                    let found = bytes.withUnsafeBufferPointer { DisplayWidth.nextNonWordByte(in: $0, from: start) }
                    #expect(
                        found == Self.naiveNextNonWordByte(bytes, from: start),
                        "byte \(value) in \(bytes) from \(start)")
                }
            }
        }
    }

    @Test func visibleControlsFindsWhatTheByteByByteReadingFinds() {
        for value in UInt8.min...UInt8.max {
            for bytes in Self.cases(value) + Self.cases(value).map({ [0xC2] + $0 }) {
                let found = MarkdownRenderer.visibleControls(bytes) != nil
                #expect(found == Self.naiveHasControl(bytes), "byte \(value) in \(bytes)")
            }
        }
    }

    @Test func firstIndexOfThreeBytesStopsAtTheFirstOfThem() {
        let (a, b, c) = (UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "|"))
        for value in UInt8.min...UInt8.max {
            for bytes in Self.cases(value) {
                for start in 0..<min(bytes.count, 3) {
                    let found = bytes.withUnsafeBufferPointer {
                        ByteScan.firstIndex(of: a, b, c, in: $0, from: start, to: bytes.count)
                    }
                    let expected = bytes[start...].firstIndex { $0 == a || $0 == b || $0 == c } ?? bytes.count
                    #expect(found == expected, "byte \(value) in \(bytes) from \(start)")
                }
            }
        }
    }

    @Test func randomBuffers() {
        var generator = SystemRandomNumberGenerator()
        // Mostly text, some spaces, line feeds, tabs, carriage returns, DEL, 0xC2 and continuation bytes.
        let alphabet: [UInt8] =
            Array("abc xyz|".utf8) + [0x0A, 0x09, 0x0D, 0x7F, 0xC2, 0x85, 0xA0, 0xE2, 0x86, 0x92, 0x1B, 0x00]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            #expect((MarkdownRenderer.visibleControls(bytes) != nil) == Self.naiveHasControl(bytes), "\(bytes)")
            let start = count == 0 ? 0 : Int.random(in: 0..<count, using: &generator)
            let found = bytes.withUnsafeBufferPointer { DisplayWidth.nextNonWordByte(in: $0, from: start) }
            #expect(found == Self.naiveNextNonWordByte(bytes, from: start), "\(bytes) from \(start)")
            let end = Int.random(in: start...count, using: &generator)
            let pipe = bytes.withUnsafeBufferPointer {
                ByteScan.firstIndex(of: 0x7C, 0x0A, 0xC2, in: $0, from: start, to: end)
            }
            #expect(
                pipe == (bytes[start..<end].firstIndex { $0 == 0x7C || $0 == 0x0A || $0 == 0xC2 } ?? end),
                "\(bytes) from \(start) to \(end)")
        }
    }
}
