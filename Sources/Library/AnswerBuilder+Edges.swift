import Foundation

/// A passage is cut out of its document by size, so it may begin in the middle of a sentence (a chunk that
/// repeats the end of the one before, a PDF page that continues the last) and end in the middle of one. An
/// extractive answer quotes sentences: the cut pieces at either edge are left out, so it never shows "passes
/// to the observer without reading them" for a sentence whose subject is in another passage.
extension AnswerBuilder {
    /// `text` less a sentence cut at its start (it begins with a lower-case letter) and one cut at its end (a
    /// line of prose that does not end a sentence); unchanged when nothing would remain. A passage that begins
    /// inside a code block (`open`, its fence) is not cut at its start: code is not prose.
    static func wholeSentences(_ text: String, inCode open: CodeFence? = nil) -> String {
        var body = Substring(text)
        if open == nil, let first = body.first(where: { !$0.isWhitespace }), first.isLowercase,
            let end = firstSentenceEnd(in: body)
        {
            body = body[end...]
        }
        if let cut = lastSentenceEnd(in: body, inCode: open) { body = body[..<cut] }
        let kept = body.trimmingCharacters(in: .whitespacesAndNewlines)
        return kept.isEmpty ? text : kept
    }

    /// Where the text after the first sentence end (". ", "! ", "? ", a blank line, or a line break before a
    /// list item, a table row, a heading or a code fence) starts. (A passage that begins inside code is not
    /// cut: `wholeSentences`.)
    static func firstSentenceEnd(in text: Substring) -> Substring.Index? {
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace, ".!?".contains(previous) { return index }
            if character == "\n", previous == "\n" { return index }
            if character == "\n" {
                let next = text[text.index(after: index)...].drop { $0 == " " }
                if ["|", "- ", "* ", "• ", "#", "```", "~~~"].contains(where: { next.hasPrefix($0) }) { return index }
            }
            if !(character == " " && previous == "\n") { previous = character }
            index = text.index(after: index)
        }
        return nil
    }

    /// When the last line is prose that does not end a sentence: the end of the last whole sentence of its
    /// paragraph (or the paragraph's start, when it has none). Nil when the text ends as it should: with
    /// . ! ? : or a closing quote or bracket after one, or with a list item, a table row, code or a heading.
    /// `open` is the code block the text begins inside, if any.
    static func lastSentenceEnd(in text: Substring, inCode open: CodeFence? = nil) -> Substring.Index? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let lastLine = trimmed.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces),
            let last = lastLine.last
        else { return nil }
        if ".!?:".contains(last) { return nil }
        if "\"”’')]".contains(last), let before = lastLine.dropLast().last, ".!?".contains(before) { return nil }
        let structured = ["- ", "* ", "• ", "|", "#", "```", "~~~", "    "]
        if structured.contains(where: lastLine.hasPrefix)
            || lastLine.first?.isNumber == true && lastLine.prefix(4).contains(".")
        {
            return nil
        }
        // Inside a code block left open.
        if CodeFence.open(after: Substring(trimmed + "\n"), from: open) != nil { return nil }
        // Back from the end: the last ". " (or ! ?) of the paragraph, else the paragraph's start.
        let paragraphStart = text.range(of: "\n\n", options: .backwards)?.upperBound ?? text.startIndex
        var index = text.endIndex
        while index > paragraphStart {
            let before = text.index(before: index)
            if ".!?".contains(text[before]), index < text.endIndex, text[index].isWhitespace { return index }
            index = before
        }
        return paragraphStart
    }
}
