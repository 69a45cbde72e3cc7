import Foundation
import Markdown
import ResponsesAPI
import Untrusted

/// The answer's citations as numbered footnotes: one per cited URL or file, with the words it cites.
extension TurnRenderer {
    mutating func footnote(for annotation: Annotation, partText: String) -> Int? {
        let key: String
        let label: String
        var quote: String?
        var command: String?
        switch annotation {
        case .urlCitation(let url, let title, let start, let end):
            key = url
            label = title.map { "\($0) — \(url)" } ?? url
            quote = Self.span(partText, start, end)
        case .fileCitation(let fileID, let filename, let index):
            key = fileID
            label = filename ?? fileID
            quote = index.flatMap { Self.sentence(before: $0, in: partText) }
        case .containerFileCitation(let containerID, let fileID, let filename, let start, let end):
            key = fileID
            label = (filename ?? fileID) + " (code interpreter)"
            command = "openresponses containers download \(containerID) \(fileID)"
            quote = Self.span(partText, start, end)
        case .filePath(let fileID, _):
            key = fileID
            label = "file \(fileID)"
        case .unknown:
            return nil
        }
        if let existing = footnotes.firstIndex(where: { $0.key == key }) { return existing + 1 }
        footnotes.append(Footnote(key: key, label: label, quote: quote.map { Self.clipped($0, 120) }, command: command))
        return footnotes.count
    }

    /// Characters `start..<end` of `text` (indices count Unicode scalars, as the API's do).
    static func span(_ text: String, _ start: Int?, _ end: Int?) -> String? {
        guard let start, let end, start >= 0, end > start else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard end <= scalars.count else { return nil }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[start..<end])
        return String(result).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sentence of `text` that ends at `index` (a file citation points just past what it cites).
    static func sentence(before index: Int, in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard index > 0, index <= scalars.count else { return nil }
        var start = index - 1
        while start > 0, !".!?\n".unicodeScalars.contains(scalars[start - 1]) { start -= 1 }
        return span(text, start, index)
    }

    static func clipped(_ text: String, _ limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }
}
