import Foundation
import ZIPFoundation

/// DOCX read directly: the ZIP's `word/document.xml` with libxml2's streaming reader (`XMLReader`).
/// Paragraphs in order, headings by style (`Heading1`…`Heading9`, `Title`) starting sections with their
/// heading path, tables row by row (cells separated by ` | `), and the footnotes of `word/footnotes.xml` at
/// the end. Each part is refused once it inflates past `caps.zipMemberBytes` (the size its header
/// declares is checked first, the bytes counted while inflating), and the document once its text passes
/// `caps.textBytes` (counted while the XML is read).
struct DOCXExtractor: Sendable {
    var caps = ResourceCaps()

    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw LibraryError(path: url.path, "is not a DOCX file (not a ZIP archive)")
        }
        guard var body = try entry("word/document.xml", in: archive, path: url.path) else {
            throw LibraryError(path: url.path, "is not a DOCX file (it has no word/document.xml)")
        }
        var builder = DocumentBuilder()
        let document = try paragraphs(&body, path: url.path, part: "word/document.xml", budget: caps.textBytes)
        let used = document.reduce(0) { $0 + $1.text.utf8.count + 1 }
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
        if var notes = try entry("word/footnotes.xml", in: archive, path: url.path) {
            let texts = try paragraphs(
                &notes, path: url.path, part: "word/footnotes.xml", budget: caps.textBytes - used
            )
            .map(\.text).filter { !$0.isEmpty }
            if !texts.isEmpty {
                builder.begin(page: nil, headings: ["Footnotes"])
                for (index, text) in texts.enumerated() { builder.append("[\(index + 1)] \(text)\n") }
            }
        }
        return builder.build(title: title)
    }

    /// The member `name` inflated, nil when the archive has none; refused past `caps.zipMemberBytes`.
    func entry(_ name: String, in archive: Archive, path: String) throws(LibraryError) -> Data? {
        guard let entry = archive[name] else { return nil }
        let cap = caps.zipMemberBytes
        let declared = entry.uncompressedSize
        guard declared <= UInt64(cap) else {
            throw caps.refusal(
                .zipMember, path: path, "its \(name) would inflate to \(declared) bytes (its header says so)")
        }
        var data = Data()
        data.reserveCapacity(Int(declared))
        var overflowed = false
        do {
            // Counted as it inflates: the deflate stream, not the header, decides how much comes out.
            _ = try archive.extract(entry, skipCRC32: false) { piece in
                guard data.count + piece.count <= cap else {
                    overflowed = true
                    throw CancellationError()
                }
                data.append(piece)
            }
        } catch {
            if overflowed {
                throw caps.refusal(
                    .zipMember, path: path,
                    "its \(name) inflates to more than \(caps.describe(.zipMember)) (its headers said \(declared) bytes)"
                )
            }
            throw LibraryError(path: path, "its \(name) cannot be read: \(error)")
        }
        return data
    }

    struct Paragraph {
        var text: String
        /// 0 for the Title style, 1–9 for HeadingN, nil otherwise.
        var headingLevel: Int?
    }

    /// The paragraphs of the part `xml` (emptied once libxml2's reader has its copy); refused once their
    /// text passes `budget` bytes.
    func paragraphs(_ xml: inout Data, path: String, part: String, budget: Int) throws(LibraryError) -> [Paragraph] {
        let library: LibXML2
        switch LibXML2.shared {
        case .success(let loaded): library = loaded
        case .failure(let failure): throw LibraryError(path: path, "cannot be read: \(failure.message)")
        }
        guard let reader = XMLReader(xml, library: library) else {
            throw LibraryError(path: path, "its \(part) cannot be read (libxml2 could not make a reader)")
        }
        // The reader reads its own copy: the inflated part need not stay in memory beside it.
        xml = Data()
        var collector = WordprocessingReader()
        var overflowed = false
        do {
            while let node = try reader.next() {
                switch node {
                case .start(let name):
                    collector.start(name, style: name == "w:pStyle" ? reader.attribute("w:val") : nil)
                case .text(let text): collector.characters(text)
                case .end(let name): collector.end(name)
                }
                if collector.received > budget {
                    overflowed = true
                    break
                }
            }
        } catch {
            let reason = error.reason.isEmpty ? "" : ": \(error.reason)"
            throw LibraryError(path: path, "its \(part) is not well-formed XML (line \(error.line)\(reason))")
        }
        if overflowed {
            throw caps.refusal(.text, path: path, "its text passes \(caps.describe(.text)) (reading \(part))")
        }
        return collector.paragraphs
    }
}
