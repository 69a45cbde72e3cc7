import Untrusted

/// Free text turned into an FTS5 query that cannot be a syntax error: every word becomes a quoted string,
/// so `AND`, `-`, `:`, `(` and lone quotes are just text. A quoted "phrase" stays a phrase, and `word*`
/// stays a prefix search. Terms are joined with OR: BM25 ranks chunks that match more of them higher,
/// and a question's small words cannot make it match nothing. English function words ("what", "is",
/// "the") are left out when other words remain: they match nearly every chunk, so BM25 gives them almost
/// no weight while scoring every chunk they match, which made a typed question over 100,000 chunks several
/// times slower than its content words alone (Benchmarks/library.sh). A quoted phrase keeps all its words.
public enum FTSQuery {
    /// The FTS5 query, or nil when the text has no word at all.
    public static func make(_ text: String) -> String? {
        let terms = searched(self.terms(text))
        guard !terms.isEmpty else { return nil }
        return terms.map(query).joined(separator: " OR ")
    }

    /// The terms a query searches for: English function words left out when other terms remain.
    static func searched(_ terms: [Term]) -> [Term] {
        let content = terms.filter { $0.prefix || $0.words.count > 1 || !stopWords.contains($0.words[0].lowercased()) }
        return content.isEmpty ? terms : content
    }

    /// One term as an FTS5 query: quoted by Unicode scalar, so that no word can end the string early whatever
    /// its characters; `*` after it for a prefix.
    public static func query(_ term: Term) -> String {
        let quoted = FTS5Quoting.phrase(term.words.joined(separator: " "))
        return term.prefix ? quoted + "*" : quoted
    }

    public struct Term: Hashable, Sendable {
        public var words: [String]
        public var prefix: Bool
    }

    /// The terms of `text`: quoted phrases, and single words (with `*` at the end for a prefix). Words are
    /// runs of letters and digits; everything else separates them.
    public static func terms(_ text: String) -> [Term] {
        var terms: [Term] = []
        var rest = Substring(text)
        while let quote = rest.firstIndex(of: "\"") {
            terms += wordsOf(rest[..<quote])
            let after = rest[rest.index(after: quote)...]
            guard let close = after.firstIndex(of: "\"") else {
                rest = after
                break
            }
            let phrase = words(after[..<close])
            if !phrase.isEmpty { terms.append(Term(words: phrase, prefix: false)) }
            rest = after[after.index(after: close)...]
        }
        terms += wordsOf(rest)
        var seen = Set<Term>()
        return terms.filter { seen.insert($0).inserted }
    }

    static func wordsOf(_ text: Substring) -> [Term] {
        var terms: [Term] = []
        var word = ""
        func flush(prefix: Bool) {
            if !word.isEmpty { terms.append(Term(words: [word], prefix: prefix)) }
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else {
                flush(prefix: character == "*")
            }
        }
        flush(prefix: false)
        return terms
    }

    static func words(_ text: Substring) -> [String] {
        wordsOf(text).flatMap(\.words)
    }

    /// Words too common in English questions to help find a passage.
    static let stopWords: Set<String> = [
        "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before", "but",
        "by",
        "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if",
        "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "she", "should", "so",
        "than",
        "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "was", "we",
        "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
    ]
}
