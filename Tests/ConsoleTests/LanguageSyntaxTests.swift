@testable import Console
import Testing

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
                if let first = word.utf8.first { variants.append(String(decoding: [first ^ 1] + word.utf8.dropFirst(), as: UTF8.self)) }
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
        let words = (1...5000).map { (UInt64($0) &* 0x0101_0101, $0 % 2 == 0 ? LanguageSyntax.WordKind.keyword : .type) }
        let table = PackedWordTable(words)
        for (key, kind) in words { #expect(table[key] == kind) }
        #expect(table[0] == nil)
        #expect(table[0x0101_0101 &* 5001] == nil)
    }
}
