import Foundation

/// Code in an extractive answer is quoted as code or not at all, never joined into a sentence. What is
/// quoted is a run of a block's lines that share a word with the question, a comment line with the line
/// after it (the command it describes), at most `codeLines` lines, as they are in the document less their
/// common indentation; the answer shows it as a fenced block under its bullet.
extension AnswerBuilder {
    /// The most lines one quote of code holds.
    static let codeLines = 3

    /// What `extract` may quote of a passage: its sentences of prose, and the runs of its code's lines that
    /// share a word with the question (`wanted`).
    static func candidates(_ passage: SearchHit, source: Int, wanted: Set<String>) -> [Sentence] {
        pieces(passage.text, codeStart: passage.codeStart).flatMap { piece -> [Sentence] in
            switch piece {
            case .prose(let sentence): [Sentence(text: sentence, source: source)]
            case .code(let lines, let language):
                codeQuotes(lines, wanted: wanted).map {
                    Sentence(text: $0.joined(separator: "\n"), source: source, isCode: true, language: language)
                }
            }
        }
    }

    /// The runs of `lines` (a block's) to quote for a question of `wanted` words: consecutive lines that share
    /// one, a comment with the line it describes; a blank line ends a run, and so does `codeLines`.
    static func codeQuotes(_ lines: [String], wanted: Set<String>) -> [[String]] {
        // A comment line (or several) goes with the line after it; a blank line is a group of none.
        var groups: [[String]] = []
        var pending: [String] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                if !pending.isEmpty { groups.append(pending) }
                groups.append([])
                pending = []
                continue
            }
            pending.append(line)
            if !["#", "//", "-- ", "/*"].contains(where: trimmed.hasPrefix) {
                groups.append(pending)
                pending = []
            }
        }
        if !pending.isEmpty { groups.append(pending) }
        var quotes: [[String]] = []
        var current: [String] = []
        for group in groups {
            let matches = group.contains { !wanted.isDisjoint(with: words($0)) }
            if !current.isEmpty, !matches || current.count + group.count > codeLines {
                quotes.append(current)
                current = []
            }
            if matches { current += group.suffix(codeLines) }
        }
        if !current.isEmpty { quotes.append(current) }
        return quotes.map(dedented).filter { $0.joined().count <= 600 }
    }

    /// `lines` less the indentation they all share.
    static func dedented(_ lines: [String]) -> [String] {
        let indent =
            lines.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { line in line.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(indent)) }
    }

    /// The start of a passage, for an answer that has nothing better to quote: its first sentence, or the
    /// first lines of code it holds (up to a blank line, at most `codeLines`), cited as passage 1.
    public func opening(of passage: SearchHit) -> Sentence? {
        switch Self.pieces(passage.text, codeStart: passage.codeStart).first {
        case .prose(let sentence): return Sentence(text: sentence, source: 1)
        case .code(let lines, let language):
            let first = lines.drop { $0.allSatisfy(\.isWhitespace) }.prefix { !$0.allSatisfy(\.isWhitespace) }
            return Sentence(
                text: Self.dedented(Array(first.prefix(Self.codeLines))).joined(separator: "\n"), source: 1,
                isCode: true, language: language)
        case nil: return nil
        }
    }

    /// `sentence` as a line of the answer citing `[number]`: prose on the bullet's line; code as a fenced
    /// block under the bullet, each line as it is.
    public func bullet(_ sentence: Sentence, citing number: Int) -> String {
        guard sentence.isCode else { return "• \(sentence.text) [\(number)]\n" }
        let lines = sentence.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let marker = CodeFence.marker(for: lines)
        let block = [marker + (sentence.language ?? "")] + lines + [marker]
        return "• [\(number)]\n" + block.map { "  " + $0 }.joined(separator: "\n") + "\n"
    }

    /// What a footnote quotes of `sentence`: the sentence, or the first line of code (… when more follow).
    public func quote(_ sentence: Sentence) -> String {
        guard sentence.isCode else { return sentence.text }
        let lines = sentence.text.split(separator: "\n")
        return lines.first.map { $0.trimmingCharacters(in: .whitespaces) + (lines.count > 1 ? " …" : "") } ?? ""
    }
}
