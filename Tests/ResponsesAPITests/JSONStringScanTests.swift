import Foundation
import ResponsesAPI
import Testing

/// The string scan reads sixteen bytes at a time, then eight, then one: an escape, the closing quote or a
/// control character is found at every position of every block and tail, next to the bytes a lane-wise
/// test could confuse with them (0x20 and 0x1F, 0x5B and 0x5D around `\`, 0x21 and 0x23 around `"`, 0x7F,
/// and multi-byte characters whose bytes are those with the high bit set).
@Suite("JSON string scan")
struct JSONStringScanTests {
    static let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x61, 0x7A]
    /// Leads and continuations: 0xA2 and 0xDC are `"` and `\` with the high bit set, and 0x84, 0x90 and 0x97
    /// have a control character's low bits.
    static let multiByte: [[UInt8]] = ["é", "日", "¢", "ܐ", "ऄ"].map { Array($0.utf8) }

    /// `count` plain bytes, multi-byte characters among them, as the raw inside of a JSON string.
    static func filler(_ count: Int, seed: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = seed
        while bytes.count < count {
            let character = Self.multiByte[index % Self.multiByte.count]
            if index % 3 == 2, bytes.count + character.count <= count {
                bytes += character
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
                    let expected =
                        String(decoding: before, as: UTF8.self) + meaning + String(decoding: after, as: UTF8.self)
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
