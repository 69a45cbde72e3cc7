import Foundation

/// Plain text and Markdown: the file's text; Markdown's ATX headings (`#` to `######`, outside fenced
/// code) start sections whose heading path chunks keep, and the first level-1 heading is the title.
struct TextExtractor: Sendable {
    var markdown: Bool

    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        let text = try Self.read(url)
        guard markdown else {
            var builder = DocumentBuilder()
            builder.append(text)
            return builder.build()
        }
        return Self.markdownDocument(text)
    }

    /// A file's text as UTF-8 (invalid bytes replaced), or an error naming the file.
    static func read(_ url: URL) throws(LibraryError) -> String {
        do {
            let data = try Data(contentsOf: url)
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        } catch {
            throw LibraryError(path: url.path, "cannot read it: \(error.localizedDescription)")
        }
    }

    static func markdownDocument(_ text: String) -> ExtractedDocument {
        var builder = DocumentBuilder()
        var headings: [(level: Int, title: String)] = []
        var title: String?
        var fence: CodeFence?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !CodeFence.read(line, open: &fence), fence == nil, let heading = Self.heading(line.drop { $0 == " " }) {
                while let last = headings.last, last.level >= heading.level { headings.removeLast() }
                headings.append(heading)
                if title == nil, heading.level == 1 { title = heading.title }
                builder.begin(page: nil, headings: headings.map(\.title))
            }
            builder.append(String(line) + "\n")
        }
        return builder.build(title: title)
    }

    /// `## Title` → (2, "Title"); nil for other lines.
    static func heading(_ line: Substring) -> (level: Int, title: String)? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var title = rest.trimmingCharacters(in: .whitespaces)
        while title.hasSuffix("#") { title.removeLast() }
        title = title.trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? nil : (hashes, title)
    }
}
