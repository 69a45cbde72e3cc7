import Foundation
import ZIPFoundation

/// DOCX read directly: the ZIP's `word/document.xml` with libxml2's streaming reader (`XMLReader`).
/// Paragraphs in order, headings by style (`Heading1`…`Heading9`, `Title`) starting sections with their
/// heading path, tables row by row (cells separated by ` | `), and the footnotes of `word/footnotes.xml` at
/// the end.
struct DOCXExtractor: Sendable {
    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw LibraryError(path: url.path, "is not a DOCX file (not a ZIP archive)")
        }
        guard let body = try Self.entry("word/document.xml", in: archive, path: url.path) else {
            throw LibraryError(path: url.path, "is not a DOCX file (it has no word/document.xml)")
        }
        var builder = DocumentBuilder()
        let document = try Self.paragraphs(body, path: url.path, part: "word/document.xml")
        var headings: [(level: Int, title: String)] = []
        var title: String?
        for paragraph in document {
            if let level = paragraph.headingLevel, !paragraph.text.isEmpty {
                if level == 0 {
                    title = title ?? paragraph.text
                } else {
                    while let last = headings.last, last.level >= level { headings.removeLast() }
                    headings.append((level, paragraph.text))
                    builder.begin(page: nil, headings: headings.map(\.title))
                }
            }
            builder.append(paragraph.text + "\n")
        }
        if let notes = try Self.entry("word/footnotes.xml", in: archive, path: url.path) {
            let texts = try Self.paragraphs(notes, path: url.path, part: "word/footnotes.xml").map(\.text).filter { !$0.isEmpty }
            if !texts.isEmpty {
                builder.begin(page: nil, headings: ["Footnotes"])
                for (index, text) in texts.enumerated() { builder.append("[\(index + 1)] \(text)\n") }
            }
        }
        return builder.build(title: title)
    }

    static func entry(_ name: String, in archive: Archive, path: String) throws(LibraryError) -> Data? {
        guard let entry = archive[name] else { return nil }
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
        } catch {
            throw LibraryError(path: path, "its \(name) cannot be read: \(error)")
        }
        return data
    }

    struct Paragraph {
        var text: String
        /// 0 for the Title style, 1–9 for HeadingN, nil otherwise.
        var headingLevel: Int?
    }

    static func paragraphs(_ xml: Data, path: String, part: String) throws(LibraryError) -> [Paragraph] {
        let library: LibXML2
        switch LibXML2.shared {
        case .success(let loaded): library = loaded
        case .failure(let failure): throw LibraryError(path: path, "cannot be read: \(failure.message)")
        }
        guard let reader = XMLReader(xml, library: library) else {
            throw LibraryError(path: path, "its \(part) cannot be read (libxml2 could not make a reader)")
        }
        var collector = WordprocessingReader()
        do {
            while let node = try reader.next() {
                switch node {
                case .start(let name): collector.start(name, style: name == "w:pStyle" ? reader.attribute("w:val") : nil)
                case .text(let text): collector.characters(text)
                case .end(let name): collector.end(name)
                }
            }
        } catch {
            let reason = error.reason.isEmpty ? "" : ": \(error.reason)"
            throw LibraryError(path: path, "its \(part) is not well-formed XML (line \(error.line)\(reason))")
        }
        return collector.paragraphs
    }
}
