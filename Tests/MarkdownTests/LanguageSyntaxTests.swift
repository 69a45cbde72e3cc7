import Testing

@testable import Markdown

/// A language's words are found as what they are (the packed table against the sets it is built from), and
/// nothing else is: every keyword and type of every language, those words with a byte changed, cased
/// differently, cut short or made longer.
@Suite("Language syntax")
struct LanguageSyntaxTests {
    /// What the sets say `word` is, the way `kind(of:)` must.
    static func expected(_ language: LanguageSyntax, _ word: String) -> LanguageSyntax.WordKind? {
        let lookup = language.caseInsensitive ? word.lowercased() : word
        return language.keywords.contains(lookup) ? .keyword : language.types.contains(lookup) ? .type : nil
    }

    @Test func everyWordIsFoundAsWhatItIsAndNoOtherWordIs() {
        var checked = 0
        for language in LanguageSyntax.all {
            for word in language.keywords.union(language.types) {
                var variants = [word, word.uppercased(), String(word.dropLast()), word + "x", "x" + word]
                if let first = word.utf8.first {
                    variants.append(String(decoding: [first ^ 1] + word.utf8.dropFirst(), as: UTF8.self))
                }
                for variant in variants {
                    let found = language.kind(of: ArraySlice(variant.utf8))
                    #expect(found == Self.expected(language, variant), "\(language.names[0]): \(variant)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test func aTableOfManyKeysFindsEachOne() {
        let words = (1...5000).map {
            (UInt64($0) &* 0x0101_0101, $0 % 2 == 0 ? LanguageSyntax.WordKind.keyword : .type)
        }
        let table = PackedWordTable(words)
        for (key, kind) in words { #expect(table[key] == kind) }
        #expect(table[0] == nil)
        #expect(table[0x0101_0101 &* 5001] == nil)
    }

    /// The packing of bytes in memory (eight at a time, folded to lower case with one sum) against the
    /// byte-by-byte packing: every byte value in every position of words of every length up to nine, and
    /// random words weighted to the letters' edges (`@`, `A`, `Z`, `[`, `` ` ``, `a`, `z`, `{`).
    @Test func packingBytesInMemoryEqualsPackingThemOneByOne() {
        var generator = SystemRandomNumberGenerator()
        let edges: [UInt8] = [0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x00, 0x7F, 0x80, 0xFF]
        var words: [[UInt8]] = []
        for length in 1...8 {
            for position in 0..<length {
                for byte in 0...255 {
                    var word = [UInt8](repeating: UInt8(ascii: "Q"), count: length)
                    word[position] = UInt8(byte)
                    words.append(word)
                }
            }
        }
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...9, using: &generator)
            words.append(
                (0..<length).map { _ in
                    Bool.random(using: &generator)
                        ? edges.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator)
                })
        }
        for word in words {
            for lowercased in [false, true] {
                let inMemory = word.withUnsafeBufferPointer { LanguageSyntax.pack($0, lowercased: lowercased) }
                let oneByOne = LanguageSyntax.pack(word.lazy.map { $0 }, lowercased: lowercased)
                #expect(inMemory == oneByOne, "\(word) lowercased: \(lowercased)")
            }
        }
    }
}
