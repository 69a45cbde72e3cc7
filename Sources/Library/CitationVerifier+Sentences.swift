import Foundation

/// An answer cut into sentences, each with the passages it cites. Fenced code, headings, table rules and the
/// footnotes the library appends ("[1] path — “quote”") are left out; a list item or a table row is a unit of
/// its own, cut further into sentences. A sentence ends at . ! or ? followed by white space and a capital, a
/// digit, a quote or the end, with the citation markers right after it still its own ("… on disk. [2] Then");
/// so "e.g. the", "3.5 ms" and "U.S. law" do not end one.
extension CitationVerifier {
    struct Cited: Hashable {
        /// The sentence, markers taken out.
        var text: String
        var citations: [Int]
    }

    static func sentences(_ answer: String) -> [Cited] {
        units(answer).flatMap(split).compactMap(cited)
    }

    /// The answer's prose as units: paragraphs, list items, table rows.
    static func units(_ answer: String) -> [String] {
        var units: [String] = []
        var current: [Substring] = []
        var open: CodeFence?
        func flush() {
            if !current.isEmpty { units.append(current.joined(separator: " ")) }
            current = []
        }
        for line in answer.split(separator: "\n", omittingEmptySubsequences: false) {
            if CodeFence.read(line, open: &open) || open != nil {
                flush()
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || isFootnote(trimmed) {
                flush()
            } else if trimmed.hasPrefix("|") {
                flush()
                let cells = trimmed.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                if !cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) {
                    units.append(cells.joined(separator: ": "))
                }
            } else if let item = listItem(trimmed) {
                flush()
                current = [Substring(item)]
            } else {
                current.append(Substring(trimmed))
            }
        }
        flush()
        return units
    }

    /// A list item's text less its bullet or number ("- ", "* ", "• ", "+ ", "1. ", "2) "); nil for another line.
    static func listItem(_ line: String) -> String? {
        for bullet in ["- ", "* ", "• ", "+ "] where line.hasPrefix(bullet) { return String(line.dropFirst(2)) }
        let digits = line.prefix { $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        let rest = line.dropFirst(digits.count)
        guard rest.hasPrefix(". ") || rest.hasPrefix(") ") else { return nil }
        return String(rest.dropFirst(2))
    }

    /// A footnote line the library writes under an answer: "[n] location — “quote”".
    static func isFootnote(_ line: String) -> Bool {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
            Int(line[line.index(after: line.startIndex)..<close]) != nil
        else { return false }
        return line.contains(" — “")
    }

    static let abbreviations: Set<String> = [
        "e.g", "i.e", "etc", "vs", "cf", "fig", "approx", "dr", "mr", "mrs", "ms", "no", "st", "al", "eq", "sec", "ch",
        "vol", "p", "pp", "ca", "resp", "incl", "max", "min", "jr", "sr",
    ]

    /// A unit cut into sentences, markers still in them.
    static func split(_ unit: String) -> [String] {
        let characters = Array(unit)
        var sentences: [String] = []
        var start = 0
        var index = 0
        while index < characters.count {
            defer { index += 1 }
            guard ".!?".contains(characters[index]) else { continue }
            if characters[index] == "." {
                var wordStart = index
                // An abbreviation is short: no more than 12 characters are looked back at (a hostile run of
                // dots without spaces stays linear).
                while wordStart > max(start, index - 12), !characters[wordStart - 1].isWhitespace,
                    characters[wordStart - 1] != "("
                {
                    wordStart -= 1
                }
                let word = String(characters[wordStart..<index]).lowercased()
                // "e.g", "u.s", "j": initials (letters in pieces of two at most, with a dot inside or alone).
                let initials = word.split(separator: ".").allSatisfy { $0.count <= 2 && $0.allSatisfy(\.isLetter) }
                if abbreviations.contains(word) || (initials && (word.count == 1 || word.contains("."))) {
                    continue
                }
            }
            // Closing quotes and brackets, then markers, belong to the sentence.
            var end = index + 1
            while end < characters.count, "\"”’')*".contains(characters[end]) { end += 1 }
            var next = end
            while next < characters.count {
                var probe = next
                while probe < characters.count, characters[probe] == " " { probe += 1 }
                guard probe < characters.count, characters[probe] == "[",
                    let close = characters[probe..<min(probe + 25, characters.count)].firstIndex(of: "]"),
                    characters[(probe + 1)..<close].allSatisfy({ $0.isNumber || ", –-".contains($0) })
                else { break }
                next = close + 1
                end = next
            }
            guard end == characters.count || characters[end].isWhitespace else { continue }
            let following = characters[end...].first { !$0.isWhitespace }
            if let following, following.isLowercase { continue }
            sentences.append(String(characters[start..<end]))
            start = end
            index = end - 1
        }
        if start < characters.count { sentences.append(String(characters[start...])) }
        return sentences.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A sentence's citations, and its text without them; nil when nothing but markers and punctuation remains.
    static func cited(_ sentence: String) -> Cited? {
        var citations: [Int] = []
        var text = ""
        var rest = Substring(sentence)
        while let open = rest.firstIndex(of: "[") {
            text += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.prefix(24).firstIndex(of: "]"),
                let numbers = citationNumbers(after[..<close])
            {
                for number in numbers where !citations.contains(number) { citations.append(number) }
                text += "\u{1}"
                rest = after[after.index(after: close)...]
            } else {
                text += "["
                rest = after
            }
        }
        text += rest
        // Where a marker was (\u{1}), the space before it goes when punctuation or the end follows.
        let folded = text.replacingOccurrences(of: "\\s*\u{1}(?=[.,;:!?]|$)", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1}", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard folded.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
        return Cited(text: folded, citations: citations)
    }

    /// "1", "1, 2", "1-3" or "1–3" as numbers (a range of 20 at most); nil for anything else.
    static func citationNumbers(_ inside: Substring) -> [Int]? {
        var numbers: [Int] = []
        for part in inside.split(separator: ",") {
            let bounds = part.split(whereSeparator: { $0 == "-" || $0 == "–" })
                .map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !bounds.isEmpty, bounds.count <= 2, let low = bounds[0], let high = bounds.last ?? nil,
                low <= high, high - low < 20
            else { return nil }
            numbers += Array(low...high)
        }
        return numbers.isEmpty ? nil : numbers
    }
}
