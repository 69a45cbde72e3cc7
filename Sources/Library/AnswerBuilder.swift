import Foundation

/// Turns the passages a search found into an answer with citations:
/// - with no model (offline): the sentences of the best passages that share the most of the question's
///   words, most relevant first, each with the number of its passage;
/// - with a model: the passages numbered, as context the model is told to answer from alone, citing
///   them as `[n]`.
/// The numbers are the passages' order, so the footnotes and `/sources` agree with the answer.
public struct AnswerBuilder: Sendable {
    public init() {}

    public struct Sentence: Sendable, Hashable {
        public var text: String
        /// The passage it comes from, from 1.
        public var source: Int
    }

    /// Up to `limit` sentences of `passages` that answer `question` best; empty when none shares a word
    /// with it.
    public func extract(question: String, passages: [SearchHit], limit: Int = 4) -> [Sentence] {
        let wanted = Self.words(question)
        guard !wanted.isEmpty else { return [] }
        var scored: [(sentence: Sentence, score: Double)] = []
        for (index, passage) in passages.enumerated() {
            for sentence in Self.sentences(passage.text) {
                let words = Self.words(sentence)
                let shared = wanted.intersection(words)
                guard !shared.isEmpty else { continue }
                // Shared question words (long ones count more), the share of the question covered, a little
                // less for later passages and for long sentences.
                let weight =
                    shared.reduce(0.0) { $0 + min(Double($1.count), 8) / 4 }
                    * (1 + Double(shared.count) / Double(wanted.count))
                let length = 1 + Double(words.count) / 60
                scored.append(
                    (Sentence(text: sentence, source: index + 1), weight / ((1 + 0.15 * Double(index)) * length)))
            }
        }
        var seen = Set<String>()
        return scored.sorted { $0.score > $1.score }
            .filter { seen.insert($0.sentence.text.lowercased()).inserted }
            .prefix(limit).map(\.sentence)
    }

    /// The context a model answers from: instructions, then the passages numbered with where they come from.
    public func context(question: String, passages: [SearchHit]) -> String {
        var text = """
            Answer the question using only the numbered passages below, which come from the user's documents. \
            Cite the passages you use as [1], [2], ... right after the claim. If the passages do not contain the \
            answer, say so plainly instead of answering from elsewhere.

            """
        for (index, passage) in passages.enumerated() {
            text += "\n[\(index + 1)] \(passage.location)\n\(passage.text)\n"
        }
        return text + "\nQuestion: \(question)"
    }

    /// A footnote for passage `number`: where it is, and a short quote of it (or of `quote` when given).
    public func footnote(_ number: Int, _ passage: SearchHit, quote: String? = nil) -> String {
        let span = (quote ?? passage.text).replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
        let clipped = span.count > 120 ? String(span.prefix(119)) + "…" : span
        return "[\(number)] \(passage.location) — “\(clipped.trimmingCharacters(in: .whitespaces))”"
    }

    /// Sentences of a passage: split after . ! ? and at blank lines, white space folded; a sentence cut at
    /// either edge of the passage is left out (`wholeSentences`).
    public static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        // A blank line, or a line that starts a list item or a table row, ends a sentence; table rows lose
        // their pipes.
        var inFence = false
        let lines = wholeSentences(text).split(separator: "\n", omittingEmptySubsequences: false).map {
            line -> String in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // Code: each line is a sentence of its own (a command with its comment answers a "how").
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                return "\u{1}"
            }
            if inFence { return "\u{1}" + trimmed + "\u{1}" }
            if trimmed.hasPrefix("|") {
                let cells = trimmed.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard !cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) else { return "\u{1}" }
                return "\u{1}" + cells.joined(separator: ": ") + "\u{1}"
            }
            if trimmed.isEmpty || trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("• ")
                || trimmed.first?.isNumber == true && trimmed.contains(". ") && trimmed.prefix(4).contains(".")
            {
                return "\u{1}" + trimmed
            }
            return trimmed
        }
        let folded = lines.joined(separator: " ").replacingOccurrences(
            of: "\\s+", with: " ", options: .regularExpression)
        var previous: Character = " "
        for character in folded {
            if character == "\u{1}" {
                result.append(current)
                current = ""
            } else if character == " ", ".!?".contains(previous) {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        result.append(current)
        // Headings and table rules are not sentences.
        return result.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter {
                $0.count >= 12 && $0.count <= 600 && !$0.hasPrefix("#") && !$0.hasPrefix("|-") && !$0.hasPrefix("```")
            }
    }

    /// Lower-cased words of three letters or more, less the most common English ones.
    static func words(_ text: String) -> Set<String> {
        var words = Set<String>()
        var word = ""
        for character in text.lowercased() + " " {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else {
                if word.count >= 3, !stopWords.contains(word) { words.insert(stem(word)) }
                word = ""
            }
        }
        return words
    }

    /// A crude stem: plural and -ing/-ed endings off, so "presets" meets "preset".
    static func stem(_ word: String) -> String {
        for suffix in ["ing", "ed", "es", "s"] where word.count > suffix.count + 3 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    static let stopWords: Set<String> = [
        "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "her", "was", "one", "our", "out", "has",
        "have", "how", "its", "may", "who", "what", "when", "where", "which", "why", "with", "this", "that", "from",
        "they", "them", "then", "than", "there", "these", "those", "into", "does", "did", "doing", "about", "would",
        "could", "should", "will", "your", "yours", "their", "been", "being", "also", "some", "such", "only", "other",
        "more", "most", "very", "just", "each", "here", "were", "while", "between", "after", "before", "over", "under",
    ]
}
