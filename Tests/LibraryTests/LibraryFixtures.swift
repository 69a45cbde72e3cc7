import Foundation
import Library
import TestSupport
import ZIPFoundation

/// Real files for the library's tests, made in a temporary folder: text, Markdown, HTML, JSON, CSV, a DOCX
/// built as a ZIP, PDFs written by `PDFWriter` (text, scanned, encrypted with qpdf, damaged), an image.
struct LibraryFixtures {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-library-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Where the tests keep their library store: `store/library.sqlite` in the folder.
    var storePath: String { folder.appendingPathComponent("store/library.sqlite").path }

    /// The library store at `storePath`, opened (made, the first time).
    func openStore() throws -> LibraryStore { try LibraryStore.open(at: storePath) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A library in `data/` of the folder, with `documents` (name, text) written and added, not embedded.
    func service(adding documents: [(String, String)]) async throws -> LibraryService {
        let data = folder.appendingPathComponent("data", isDirectory: true)
        let service = try LibraryService.open(
            at: data.appendingPathComponent("library.sqlite").path, options: LibraryOptions(), dataDirectory: data)
        let urls = try documents.map { try write($0.0, $0.1) }
        var plan = try await service.planAdding(urls.map(\.path), relativeTo: folder, embedding: false)
        plan.embedder = nil
        _ = try await service.add(plan)
        return service
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// A DOCX holding `parts` (path in the ZIP → text), a content-types part added.
    func docx(_ name: String, parts: [String: String]) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        let all = parts.merging([
            "[Content_Types].xml":
                #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#
        ]) { mine, _ in mine }
        for (path, text) in all.sorted(by: { $0.key < $1.key }) {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count)) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    /// A DOCX: a title, two headings, paragraphs, a table and a footnote.
    func docx(_ name: String) throws -> URL {
        var parts: [String: String] = [:]
        func add(_ path: String, _ text: String) { parts[path] = text }
        let w = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#
        func paragraph(_ text: String, style: String? = nil) -> String {
            let properties = style.map { #"<w:pPr><w:pStyle w:val="\#($0)"/></w:pPr>"# } ?? ""
            return "<w:p>\(properties)<w:r><w:t xml:space=\"preserve\">\(text)</w:t></w:r></w:p>"
        }
        add(
            "word/document.xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <w:document \(w)><w:body>
            \(paragraph("Quarterly Report", style: "Title"))
            \(paragraph("Revenue", style: "Heading1"))
            \(paragraph("Revenue grew by twelve percent in the quarter."))
            \(paragraph("Costs", style: "Heading2"))
            \(paragraph("Shipping costs fell after the warehouse moved."))
            <w:tbl><w:tr><w:tc>\(paragraph("Region"))</w:tc><w:tc>\(paragraph("Sales"))</w:tc></w:tr>
            <w:tr><w:tc>\(paragraph("North"))</w:tc><w:tc>\(paragraph("1200"))</w:tc></w:tr></w:tbl>
            </w:body></w:document>
            """)
        add(
            "word/footnotes.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?><w:footnotes \(w)><w:footnote w:id="1">\(paragraph("Figures are unaudited."))</w:footnote></w:footnotes>
            """)
        return try docx(name, parts: parts)
    }

    /// A two-page PDF with a text layer.
    func pdf(_ name: String = "report.pdf") throws -> URL {
        try write(
            name,
            PDFWriter.text(
                pages: [
                    ["Penguin Field Notes", "Emperor penguins huddle to survive the winter."],
                    ["The colony moved inland in August.", "Krill numbers fell sharply."],
                ],
                title: "Field Notes"))
    }

    /// A PDF whose only page is an image of text: poppler renders a text PDF to grey pixels, which become
    /// the page, as a scanner would make it.
    func scannedPDF(_ name: String = "scan.pdf") throws -> URL {
        let source = try write(
            "scan-source.pdf", PDFWriter.text(pages: [["SCANNED INVOICE NUMBER 4711", "Total due: ninety euros"]]))
        let prefix = folder.appendingPathComponent("scan-page").path
        try Self.tool("/usr/bin/pdftoppm", ["-r", "150", "-gray", "-singlefile", source.path, prefix])
        let pgm = try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm"))
        // P5 header: magic, width, height, maxval, each followed by white space.
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while pgm[index] == 0x20 || pgm[index] == 0x0A { index += 1 }
            var value = 0
            while pgm[index] >= 0x30 && pgm[index] <= 0x39 {
                value = value * 10 + Int(pgm[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        let pixels = pgm.suffix(from: index + 1)
        try FileManager.default.removeItem(at: source)
        return try write(name, PDFWriter.image(width: fields[0], height: fields[1], grey: Data(pixels)))
    }

    /// A PDF encrypted with a user password (qpdf), which poppler cannot read without it.
    func encryptedPDF(_ name: String = "locked.pdf") throws -> URL? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/qpdf") else { return nil }
        let plain = try pdf("plain-\(name)")
        let target = folder.appendingPathComponent(name)
        let status = try Subprocess.runBlocking(
            "/usr/bin/qpdf", ["--encrypt", "secret", "owner", "256", "--", plain.path, target.path],
            environment: ProcessInfo.processInfo.environment
        ).status
        try FileManager.default.removeItem(at: plain)
        return status == 0 ? target : nil
    }

    /// Runs a tool to its end and fails with its stderr unless it succeeds. Spawned and waited for with
    /// `posix_spawn` and `waitpid` (`Subprocess.runBlocking`): Foundation's `Process.waitUntilExit` waits in
    /// a run loop for a Dispatch source, which needs a thread of the pool the waiting test holds; with the
    /// whole suite running, tests waiting so held every thread of it for a minute and more.
    static func tool(_ path: String, _ arguments: [String]) throws {
        let result = try Subprocess.runBlocking(path, arguments, environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            throw SubprocessError("\(path) exited with \(result.status): \(result.stderr)")
        }
    }
}

extension ExtractedDocument {
    /// Characters `start..<end` (Unicode scalars) of the text.
    func slice(_ start: Int, _ end: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }
}
