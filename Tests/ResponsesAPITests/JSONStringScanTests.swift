import Foundation
import ResponsesAPI
import Testing

/// The string scan reads sixteen bytes at a time, then eight, then one: an escape, the closing quote or a
/// control character is found at every position of every block and tail, next to the bytes a lane-wise
/// test could confuse with them (0x20 and 0x1F, 0x5B and 0x5D around `\`, 0x21 and 0x23 around `"`, 0x7F,
/// 0xA2, 0xDC and 0xE0, whose low bits are those of the special bytes).
@Suite("JSON string scan")
struct JSONStringScanTests {
    static let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x61, 0x7A]
    static let multiByte: [UInt8] = Array("é日".utf8)  // C3 A9 E6 97 A5: leads and continuations

    /// `count` plain bytes, multi-byte characters among them, as the raw inside of a JSON string.
    static func filler(_ count: Int, seed: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = seed
        while bytes.count < count {
            if index % 5 == 4, bytes.count + multiByte.count <= count {
                bytes += multiByte
            } else {
                bytes.append(plain[index % plain.count])
            }
            index += 1
        }
        return bytes
    }

    func decode(_ inside: [UInt8]) throws -> String? {
        try JSONValue.parse(Data([UInt8(ascii: "\"")] + inside + [UInt8(ascii: "\"")])).stringValue
    }

    @Test func anEscapeIsFoundAtEveryPositionOfEveryBlockAndTail() throws {
        for length in 0..<48 {
            for position in 0...length {
                let before = Self.filler(position, seed: length)
                let after = Self.filler(length - position, seed: position + 3)
                for (escape, meaning) in [("\\n", "\n"), ("\\\"", "\""), ("\\\\", "\\"), ("\\u00e9", "é")] {
                    let inside = before + Array(escape.utf8) + after
                    let expected = String(decoding: before, as: UTF8.self) + meaning + String(decoding: after, as: UTF8.self)
                    #expect(try decode(inside) == expected, "escape \(escape) at \(position) of \(length)")
                }
                // No escape at all: the fast path, its end found by the same scan.
                let whole = before + after
                #expect(try decode(whole) == String(decoding: whole, as: UTF8.self), "plain, \(length)")
            }
        }
    }

    @Test func aControlCharacterIsRefusedAtEveryPosition() {
        for length in 1..<40 {
            for position in 0..<length {
                var inside = Self.filler(length, seed: position)
                // Keep the characters whole: put the control byte where an ASCII byte is.
                guard inside[position] < 0x80 else { continue }
                inside[position] = 0x1F
                #expect(throws: (any Error).self, "0x1F at \(position) of \(length)") { try decode(inside) }
                inside[position] = 0x00
                #expect(throws: (any Error).self, "0x00 at \(position) of \(length)") { try decode(inside) }
            }
        }
    }
}
