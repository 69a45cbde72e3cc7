import Foundation

/// Turns the passages a search found into an answer with citations:
/// - with no model (offline): the sentences of the best passages that share the most of the question's
///   words, most relevant first, each with the number of its passage; code quoted as code, never as prose;
/// - with a model: the passages numbered, as context the model is told to answer from alone, citing
///   them as `[n]`.
/// The numbers are the passages' order, so the footnotes and `/sources` agree with the answer.
public struct AnswerBuilder: Sendable {
    public init() {}

    public struct Sentence: Sendable, Hashable {
        /// The sentence; for code, its lines.
        public var text: String
        /// The passage it comes from, from 1.
        public var source: Int
        /// Lines of a code block, to be shown as code (`bullet`).
        public var isCode = false
        /// The code's language, when its block names one ("sh").
        public var language: String?
    }

    /// Up to `limit` sentences of `passages` that answer `question` best; empty when none shares a word
    /// with it. Code is quoted as code: the lines of a block that match, kept as lines (`codeQuotes`).
    public func extract(question: String, passages: [SearchHit], limit: Int = 4) -> [Sentence] {
        let wanted = Self.words(question)
        guard !wanted.isEmpty else { return [] }
        var scored: [(sentence: Sentence, score: Double)] = []
        for (index, passage) in passages.enumerated() {
            for sentence in Self.candidates(passage, source: index + 1, wanted: wanted) {
                let words = Self.words(sentence.text)
                let shared = wanted.intersection(words)
                guard !shared.isEmpty else { continue }
                // Shared question words (long ones count more), the share of the question covered, a little
                // less for later passages and for long sentences.
                let weight =
                    shared.reduce(0.0) { $0 + min(Double($1.count), 8) / 4 }
                    * (1 + Double(shared.count) / Double(wanted.count))
                let length = 1 + Double(words.count) / 60
                scored.append((sentence, weight / ((1 + 0.15 * Double(index)) * length)))
            }
        }
        // Each sentence once; and code once: overlapping passages hold the same lines, in runs of other lengths.
        var seen = Set<String>()
        var quoted = Set<String>()
        var result: [Sentence] = []
        for (sentence, _) in scored.sorted(by: { $0.score > $1.score }) where result.count < limit {
            guard seen.insert(sentence.text.lowercased()).inserted else { continue }
            if sentence.isCode {
                let lines = sentence.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                guard !Set(lines).isSubset(of: quoted) else { continue }
                quoted.formUnion(lines)
            }
            result.append(sentence)
        }
        return result
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
    /// either edge of the passage is left out (`wholeSentences`); each line of code a sentence of its own.
    public static func sentences(_ text: String) -> [String] {
        pieces(text, codeStart: nil).flatMap { piece -> [String] in
            switch piece {
            case .prose(let sentence): [sentence]
            case .code(let lines, _):
                lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 12 && !$0.hasPrefix("#") }
            }
        }
    }

    /// A passage's sentences of prose and, apart, its code: a code block is never read as prose.
    enum Piece: Hashable {
        case prose(String)
        /// The block's lines the passage holds, as they are, and the language its fence names.
        case code([String], language: String?)
    }

    /// The pieces of a passage, in order; `codeStart` says when it begins inside a code block.
    static func pieces(_ text: String, codeStart: SearchHit.CodeStart?) -> [Piece] {
        var open = codeStart.map { CodeFence(line: $0.fence) }
        var lines = wholeSentences(text, inCode: open).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if let lead = codeStart?.lead, !lines.isEmpty {
            // The first line began before the passage: whole with its indentation, else cut and left out.
            if lead.allSatisfy(\.isWhitespace) { lines[0] = lead + lines[0] } else { lines.removeFirst() }
        }
        var result: [Piece] = []
        var prose: [String] = []
        var code: [String] = []
        var language = open?.language
        func flush() {
            result += proseSentences(prose).map(Piece.prose)
            if !code.isEmpty { result.append(.code(code, language: language)) }
            prose = []
            code = []
        }
        for line in lines {
            if CodeFence.read(Substring(line), open: &open) {
                flush()
                language = open?.language
            } else if open != nil {
                code.append(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            } else {
                prose.append(line)
            }
        }
        flush()
        return result
    }

    /// The sentences of lines of prose.
    static func proseSentences(_ prose: [String]) -> [String] {
        var result: [String] = []
        var current = ""
        // A blank line, or a line that starts a list item or a table row, ends a sentence; table rows lose
        // their pipes.
        let lines = prose.map { line -> String in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
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
            .filter { $0.count >= 12 && $0.count <= 600 && !$0.hasPrefix("#") && !$0.hasPrefix("|-") }
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
