import Testing

@testable import Markdown

/// `DisplayWidth.of(utf8:)` decodes the common one-column scalars itself and leaves the rest to the
/// character-by-character path: the two must agree on every text, whatever it mixes.
@Suite("Display width")
struct DisplayWidthTests {
    /// Scalars from each range the byte path takes, from just outside them, and the ones that join
    /// clusters (combining marks, variation selectors, joiners, regional indicators).
    static let scalars: [UInt32] = [
        0x41, 0x7E, 0x7F, 0x1B, 0x09, 0xA0, 0xAD, 0xE9, 0xFF, 0x100, 0x17F, 0x2B0, 0x2FF, 0x300, 0x301, 0x36F, 0x370,
        0x3B1, 0x416, 0x5D0, 0x627, 0x915, 0x93F, 0x200B, 0x200C, 0x200D, 0x2010, 0x2014, 0x2019, 0x201C, 0x2022,
        0x2026,
        0x2027, 0x2028, 0x2030, 0x203C, 0x2049, 0x205E, 0x205F, 0x2060, 0x20AC, 0x2122, 0x2190, 0x2192, 0x2194, 0x21FF,
        0x2200, 0x2264, 0x2265, 0x22FF, 0x2300, 0x231A, 0x2500, 0x2502, 0x250C, 0x257F, 0x2580, 0x2588, 0x259F, 0x25A0,
        0x25B6, 0x2705, 0x2764, 0x3000, 0x3001, 0x3029, 0x302A, 0x3030, 0x3041, 0x3042, 0x3096, 0x3099, 0x309B, 0x30A1,
        0x30FB, 0x30FC, 0x4DBF, 0x4DC0, 0x4E2D, 0x9FFF, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0xD7A3, 0xD7B0, 0xFE0F,
        0xFF01, 0xFF21, 0xFF60, 0xFF61, 0x1F1E6, 0x1F1F7, 0x1F600, 0x1F44D, 0x1F3FD,
    ]

    static func text(_ values: [UInt32]) -> String {
        String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
    }

    @Test func everyScalarAloneAndAfterEveryOther() {
        for first in Self.scalars {
            let alone = Self.text([first])
            #expect(DisplayWidth.of(utf8: Array(alone.utf8)) == DisplayWidth.of(alone), "U+\(String(first, radix: 16))")
            for second in Self.scalars {
                let pair = Self.text([0x61, first, second, 0x62])
                #expect(
                    DisplayWidth.of(utf8: Array(pair.utf8)) == DisplayWidth.of(pair),
                    "U+\(String(first, radix: 16)) then U+\(String(second, radix: 16))")
            }
        }
    }

    @Test(arguments: [
        "plain ASCII", "café → résumé ≥ 2 × 3 — “quoted” … • item", "│ a │ b │", "e\u{301}tude", "❤\u{FE0F} ok",
        "\u{1B}[1mbold\u{1B}[0m → done", "\u{1B}]8;;https://é.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "\u{1B}[é",
        "🇫🇷 flag",
        "👩\u{200D}💻", "中文 and ASCII", "soft\u{AD}hyphen",
    ])
    func mixedTexts(text: String) {
        #expect(DisplayWidth.of(utf8: Array(text.utf8)) == DisplayWidth.of(text))
        #expect(DisplayWidth.of(utf8: Array(text.utf8)[...]) == DisplayWidth.of(text))
    }

    /// Every scalar the byte path takes is, alone, a character of the width it is given.
    @Test func everySimpleScalarHasItsCharactersWidth() {
        for value in UInt32(0x80)...0xFFFF {
            guard let width = DisplayWidth.simple(value), let scalar = Unicode.Scalar(value) else { continue }
            #expect(width == DisplayWidth.of(Character(scalar)), "U+\(String(value, radix: 16))")
            #expect(String(scalar).count == 1)
        }
    }

    @Test func malformedBytesGoTheCharacterWay() {
        for bytes: [UInt8] in [
            [0x61, 0xC3], [0xE2, 0x86], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0x80, 0x61],
        ] {
            #expect(DisplayWidth.of(utf8: bytes) == DisplayWidth.of(String(decoding: bytes, as: UTF8.self)), "\(bytes)")
        }
    }
}
