/// What a query's words say about which of hybrid search's two rankings to trust (issue 50): exact terms that
/// only the keyword ranking can match (a word few passages hold, a quoted phrase, an identifier or a number),
/// and the language the query is written in (the built-in model was trained on English).
public struct QuerySignals: Sendable, Hashable {
    public struct RareTerm: Sendable, Hashable {
        public var term: String
        /// How many passages of the library hold it (at most the rare limit).
        public var passages: Int
    }

    public var rareTerms: [RareTerm] = []
    /// Quoted phrases of more than one word.
    public var phrases: [String] = []
    /// Words that look like code or data: with a digit, an underscore, a dot or a slash inside, camelCase, a
    /// leading dash (`--flag`).
    public var identifiers: [String] = []
    public var language: TextLanguage?
    /// The query's words that count: its terms without the common function words of the languages
    /// `TextLanguage` knows (at least 1 when it has any term).
    public var contentTerms = 0

    /// How much of the query is exact: 1 with a quoted phrase, else its rare words and identifiers over its
    /// content terms (at most 1). A question with one rare word among five is mostly meaning; the word alone
    /// is all exact.
    public var exactShare: Double {
        if !phrases.isEmpty { return 1 }
        let exact = Set(rareTerms.map { $0.term.lowercased() }).count + identifiers.count
        return min(1, Double(exact) / Double(max(contentTerms, 1)))
    }

    public init() {}

    /// The signals of `text` that need no library: phrases, identifiers, language, content terms.
    public init(text: String) {
        let terms = FTSQuery.terms(text)
        phrases = terms.filter { $0.words.count > 1 }.map { $0.words.joined(separator: " ") }
        contentTerms = max(
            terms.filter {
                $0.words.count > 1 || $0.prefix || TextLanguage.languageBits[$0.words[0].lowercased()] == nil
            }
            .count, terms.isEmpty ? 0 : 1)
        identifiers = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\"" })
            .map { $0.trimmingTrailingPunctuation() }.filter(Self.looksLikeIdentifier).map(String.init)
        language = TextLanguage.guess(text)
    }

    /// Why the query's exact words need the keyword ranking, when they do.
    public var exactReason: String? {
        if let rare = rareTerms.first {
            return "\"\(rare.term)\" is in \(rare.passages) passage\(rare.passages == 1 ? "" : "s") only"
        }
        if let phrase = phrases.first { return "the quoted phrase \"\(phrase)\"" }
        if let identifier = identifiers.first { return "\"\(identifier)\" is an identifier or a number" }
        return nil
    }

    /// A word made by a program or for one: `RetryPolicy`, `max_tokens`, `v1.2`, `--json`, `/etc/fstab`, `404`.
    static func looksLikeIdentifier(_ word: Substring) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 2 || scalars.first.map({ $0.properties.numericType != nil }) == true else {
            return false
        }
        if word.hasPrefix("-") && scalars.count > 1 && scalars[1] != " " { return true }
        var previousLower = false
        for (index, scalar) in scalars.enumerated() {
            if scalar.properties.numericType != nil || scalar == "_" { return true }
            let inside = index > 0 && index < scalars.count - 1
            if inside && (scalar == "." || scalar == "/" || scalar == ":") { return true }
            if scalar == "/" && index == 0 && scalars.count > 1 { return true }
            if previousLower && scalar.properties.isUppercase { return true }
            previousLower = scalar.properties.isLowercase
        }
        return false
    }
}

extension Substring {
    /// Without the sentence's punctuation at its end (`fstab?` → `fstab`).
    fileprivate func trimmingTrailingPunctuation() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].unicodeScalars.last,
            ",;:!?)]}'\u{2019}".unicodeScalars.contains(last) || (last == "." && self[..<end].count > 1)
        {
            end = self.index(before: end)
        }
        return self[..<end]
    }
}
