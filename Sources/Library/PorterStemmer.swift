/// Martin Porter's stemmer (1980), the one SQLite's FTS5 `porter` tokenizer runs over the library's keyword
/// index: "backups" and "backup", "connected" and "connection" meet. Words of lower-case ASCII letters only, as
/// FTS5 stems them; any other word is returned as it is, and so are words of one or two letters.
enum PorterStemmer {
    static func stem(_ word: String) -> String {
        guard word.utf8.count > 2, word.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return word }
        var stemmer = Word(Array(word.utf8))
        stemmer.step1ab()
        stemmer.step1c()
        stemmer.step2()
        stemmer.step3()
        stemmer.step4()
        stemmer.step5()
        return String(decoding: stemmer.bytes, as: UTF8.self)
    }

    /// The word being stemmed, as bytes; `stem` is where the suffix last matched begins.
    struct Word {
        var bytes: [UInt8]
        var stem = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func isConsonant(_ index: Int) -> Bool {
            switch bytes[index] {
            case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"): false
            case UInt8(ascii: "y"): index == 0 ? true : !isConsonant(index - 1)
            default: true
            }
        }

        /// The measure of `bytes[0..<end]`: the number of vowel-consonant sequences.
        func measure(_ end: Int) -> Int {
            var count = 0
            var index = 0
            while index < end, isConsonant(index) { index += 1 }
            while index < end {
                while index < end, !isConsonant(index) { index += 1 }
                guard index < end else { break }
                count += 1
                while index < end, isConsonant(index) { index += 1 }
            }
            return count
        }

        func hasVowel(_ end: Int) -> Bool { (0..<end).contains { !isConsonant($0) } }

        func endsDoubleConsonant(_ end: Int) -> Bool {
            end >= 2 && bytes[end - 1] == bytes[end - 2] && isConsonant(end - 1)
        }

        /// Consonant, vowel, consonant at the end of `bytes[0..<end]`, the last not w, x or y.
        func endsCVC(_ end: Int) -> Bool {
            guard end >= 3, isConsonant(end - 1), !isConsonant(end - 2), isConsonant(end - 3) else { return false }
            return ![UInt8(ascii: "w"), UInt8(ascii: "x"), UInt8(ascii: "y")].contains(bytes[end - 1])
        }

        mutating func ends(_ suffix: String) -> Bool {
            let tail = Array(suffix.utf8)
            guard bytes.count > tail.count, bytes.suffix(tail.count).elementsEqual(tail) else { return false }
            stem = bytes.count - tail.count
            return true
        }

        mutating func replace(_ replacement: String) {
            bytes = Array(bytes[..<stem]) + Array(replacement.utf8)
        }

        /// The suffix that `ends` matched replaced when the stem before it has a measure above `minimum`.
        mutating func replace(_ replacement: String, measureAbove minimum: Int) {
            if measure(stem) > minimum { replace(replacement) }
        }

        mutating func step1ab() {
            if bytes.last == UInt8(ascii: "s") {
                if ends("sses") {
                    replace("ss")
                } else if ends("ies") {
                    replace("i")
                } else if bytes.count >= 2, bytes[bytes.count - 2] != UInt8(ascii: "s") {
                    bytes.removeLast()
                }
            }
            if ends("eed") {
                replace("ee", measureAbove: 0)
                return
            }
            guard ends("ed") || ends("ing"), hasVowel(stem) else { return }
            bytes.removeSubrange(stem...)
            if ends("at") || ends("bl") || ends("iz") {
                bytes.append(UInt8(ascii: "e"))
            } else if endsDoubleConsonant(bytes.count),
                ![UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "z")].contains(bytes[bytes.count - 1])
            {
                bytes.removeLast()
            } else if measure(bytes.count) == 1, endsCVC(bytes.count) {
                bytes.append(UInt8(ascii: "e"))
            }
        }

        mutating func step1c() {
            if ends("y"), hasVowel(stem) { replace("i") }
        }

        static let step2Rules: [(String, String)] = [
            ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
            ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
            ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
            ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
        ]

        static let step3Rules: [(String, String)] = [
            ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""),
        ]

        static let step4Suffixes = [
            "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
            "iti", "ous", "ive", "ize",
        ]

        mutating func step2() {
            for (suffix, replacement) in Self.step2Rules where ends(suffix) {
                replace(replacement, measureAbove: 0)
                return
            }
        }

        mutating func step3() {
            for (suffix, replacement) in Self.step3Rules where ends(suffix) {
                replace(replacement, measureAbove: 0)
                return
            }
        }

        mutating func step4() {
            // The longest suffix that matches decides ("ement" before "ment" before "ent").
            for suffix in Self.step4Suffixes.sorted(by: { $0.count > $1.count }) where ends(suffix) {
                if suffix == "ion" {
                    guard stem > 0, [UInt8(ascii: "s"), UInt8(ascii: "t")].contains(bytes[stem - 1]) else { return }
                }
                if measure(stem) > 1 { bytes.removeSubrange(stem...) }
                return
            }
        }

        mutating func step5() {
            if bytes.last == UInt8(ascii: "e") {
                let end = bytes.count - 1
                let m = measure(end)
                if m > 1 || (m == 1 && !endsCVC(end)) { bytes.removeLast() }
            }
            if bytes.count >= 2, bytes.last == UInt8(ascii: "l"), endsDoubleConsonant(bytes.count),
                measure(bytes.count) > 1
            {
                bytes.removeLast()
            }
        }
    }
}
