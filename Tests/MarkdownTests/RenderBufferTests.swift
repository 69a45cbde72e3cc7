import TestSupport
import Testing

@testable import Markdown

/// The renderer's output buffer against an array given the same appends: bytes, buffers, slices, text,
/// spaces and resets, in random order and sizes, across many regrowths and after emptying.
@Suite("Render buffer")
struct RenderBufferTests {
    @Test func holdsWhatAnArrayGivenTheSameAppendsHolds() {
        var generator = SplitMix(seed: 52)
        var buffer = RenderBuffer()
        var expected: [UInt8] = []
        for round in 0..<3 {
            for _ in 0..<2_000 {
                let size = Int.random(in: 0...(Bool.random(using: &generator) ? 8 : 700), using: &generator)
                let bytes = (0..<size).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
                switch Int.random(in: 0..<7, using: &generator) {
                case 0:
                    if let first = bytes.first {
                        buffer.append(first)
                        expected.append(first)
                    }
                case 1:
                    bytes.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
                    expected += bytes
                case 2:
                    buffer.append(contentsOf: bytes[(size / 3)...])
                    expected += bytes[(size / 3)...]
                case 3:
                    buffer += "→ \(size)"
                    expected += Array("→ \(size)".utf8)
                case 4:
                    buffer.appendSpaces(size % 40)
                    expected += Array(repeating: 0x20, count: size % 40)
                case 5:
                    buffer.appendReset()
                    expected += [0x1B, 0x5B, 0x30, 0x6D]
                default:
                    buffer.append(contentsOf: bytes)
                    expected += bytes
                }
            }
            #expect(buffer.count == expected.count, "round \(round)")
            #expect(buffer.bytes() == expected, "round \(round)")
            #expect(buffer.bytes(from: expected.count / 2) == Array(expected[(expected.count / 2)...]))
            #expect(buffer[expected.count - 1] == expected.last)
            buffer.removeAll()
            expected.removeAll()
            #expect(buffer.isEmpty && buffer.string.isEmpty)
        }
    }

    /// A buffer that starts in borrowed storage (the stack, in the renderer's calls) holds the same bytes
    /// across its move to an allocation of its own, whatever the size of the storage and of the pieces.
    @Test func aBufferOnBorrowedStorageHoldsWhatAnArrayHolds() {
        var generator = SplitMix(seed: 53)
        for storageSize in [0, 1, 16, 100, 1_024] {
            for hint in [0, 300, 5_000] {
                let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(storageSize, 1))
                defer { storage.deallocate() }
                var buffer = RenderBuffer(
                    borrowing: UnsafeMutableBufferPointer(rebasing: storage[..<storageSize]), capacity: hint)
                var expected: [UInt8] = []
                for _ in 0..<200 {
                    let size = Int.random(in: 0...(Bool.random(using: &generator) ? 12 : 90), using: &generator)
                    let bytes = (0..<size).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
                    buffer.append(contentsOf: bytes)
                    expected += bytes
                    if Bool.random(using: &generator) {
                        buffer.append(0x0A)
                        expected.append(0x0A)
                    }
                }
                #expect(buffer.bytes() == expected, "storage \(storageSize), hint \(hint)")
                var appended: [UInt8] = [1, 2]
                buffer.append(to: &appended)
                #expect(appended == [1, 2] + expected)
            }
        }
    }

    /// Short pieces are copied in overlapping loads and stores: every length up to 40, from every offset of
    /// a source and onto every offset of the buffer, each piece's bytes distinct so a misplaced one shows.
    @Test func everyShortLengthIsCopiedWhole() {
        let source = (0..<64).map { UInt8(0x30 + $0) }
        for lead in 0..<8 {
            for from in 0..<8 {
                for length in 0...40 {
                    var buffer = RenderBuffer()
                    buffer.appendSpaces(lead)
                    source.withUnsafeBufferPointer {
                        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[from..<(from + length)]))
                    }
                    buffer.append(0x21)
                    let expected = Array(repeating: 0x20, count: lead) + source[from..<(from + length)] + [0x21]
                    #expect(buffer.bytes() == expected, "length \(length) from \(from) after \(lead)")
                }
            }
        }
    }
}
