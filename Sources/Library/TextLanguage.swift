/// The language a text is written in, as far as its commonest words tell: enough for hybrid search to know when
/// the built-in model (all-MiniLM-L6-v2, trained on English) is reading a language it was not trained on, where
/// its neighbours are close to noise (issue 50). Not a general detector: English, the six European languages
/// a library most often holds besides it, and text in another script.
public enum TextLanguage: String, Sendable, Hashable, CaseIterable {
    case english, german, french, spanish, italian, dutch, portuguese
    /// Mostly letters of another script than Latin (Cyrillic, Greek, CJK, Arabic, …).
    case otherScript = "other script"

    /// The language of `text`, or nil when it is too short or holds too few common words to tell (a single
    /// word, a name, a command). Reads at most the first `limit` scalars.
    public static func guess(_ text: String, limit: Int = 4_000) -> TextLanguage? {
        var counts = [Int](repeating: 0, count: commonWords.count)
        var words = 0
        var latin = 0
        var other = 0
        var word: [UInt8] = []
        word.reserveCapacity(32)
        func flush() {
            guard !word.isEmpty else { return }
            words += 1
            // Only a word as short as the longest common one can be one: no string is made for the others.
            if word.count <= longestCommonWord, var languages = languageBits[String(decoding: word, as: UTF8.self)] {
                while languages != 0 {
                    counts[languages.trailingZeroBitCount] += 1
                    languages &= languages - 1
                }
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars.prefix(limit) {
            let value = scalar.value
            if value < 0x80 {
                // ASCII without Unicode's tables: a letter lowercased, anything else (an apostrophe too: French
                // "l'", "d'", "qu'" count as words of their own) ends the word.
                if value >= 0x61 && value <= 0x7A {
                    word.append(UInt8(value))
                    latin += 1
                } else if value >= 0x41 && value <= 0x5A {
                    word.append(UInt8(value + 0x20))
                    latin += 1
                } else {
                    flush()
                }
            } else if scalar.properties.isAlphabetic {
                if value < 0x250 { latin += 1 } else if !scalar.properties.isDiacritic { other += 1 }
                word.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                flush()
            }
        }
        flush()
        if other > latin { return .otherScript }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return nil }
        // Two common words at least, and a clear lead: "die" and "in" are English too.
        let runnerUp = counts.enumerated().filter { $0.offset != best }.map(\.element).max() ?? 0
        guard counts[best] >= 2, counts[best] * 10 >= words, counts[best] > runnerUp else { return nil }
        return TextLanguage.allCases[best]
    }

    /// The length in UTF-8 bytes of the longest common word.
    static let longestCommonWord = commonWords.joined().map(\.utf8.count).max() ?? 0

    /// Each common word with a bit per language it is common in (bit i: `allCases[i]`).
    static let languageBits: [String: UInt8] = {
        var bits: [String: UInt8] = [:]
        for (index, words) in commonWords.enumerated() {
            for word in words { bits[word, default: 0] |= 1 << index }
        }
        return bits
    }()

    /// The commonest function words of each Latin-script language, in the order of `allCases`.
    static let commonWords: [Set<String>] = [
        [
            "the", "and", "of", "to", "is", "in", "that", "it", "for", "are", "was", "with", "be", "this", "by", "on",
            "not", "or", "have", "from", "which", "an", "at", "can", "how", "what", "do", "does", "if", "you", "my",
            "i", "when", "there", "their", "these", "will", "would", "should", "has", "been", "all", "any",
        ],
        [
            "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "einen", "mit", "von", "den", "dem", "des", "zu",
            "auf", "für", "sich", "auch", "werden", "wird", "sind", "kann", "wie", "ich", "es", "im", "bei", "oder",
            "aus", "wenn", "nur", "noch", "dass", "mein", "welche", "welches", "was", "muss",
        ],
        [
            "le", "la", "les", "des", "du", "et", "est", "un", "une", "que", "qui", "pour", "dans", "pas", "sur", "au",
            "aux", "avec", "ce", "cette", "il", "sont", "par", "ne", "plus", "ou", "comment", "je", "mon", "ma", "mes",
            "peut", "être", "faut", "vous", "d", "l", "qu", "s", "n",
        ],
        [
            "el", "los", "las", "del", "que", "y", "es", "en", "un", "una", "por", "con", "para", "como", "se", "su",
            "al", "lo", "pero", "más", "este", "esta", "son", "cómo", "puedo",
        ],
        [
            "il", "lo", "gli", "della", "delle", "dei", "che", "è", "di", "un", "una", "per", "con", "sono", "non",
            "come", "nel", "nella", "alla", "anche", "questo", "questa", "posso",
        ],
        [
            "de", "het", "een", "en", "van", "is", "dat", "niet", "op", "te", "zijn", "voor", "met", "ook", "aan",
            "wordt", "bij", "hoe", "kan", "ik", "mijn", "deze", "dit",
        ],
        [
            "o", "os", "as", "da", "do", "das", "dos", "que", "e", "é", "um", "uma", "para", "com", "não", "em", "por",
            "mais", "como", "se", "seu", "sua", "posso",
        ],
    ]
}
