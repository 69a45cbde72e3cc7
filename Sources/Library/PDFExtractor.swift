import Foundation

/// PDF through poppler: the page count from `pdfinfo`, then each page's text from `pdftotext -f N -l N`
/// (poppler's reading order: a two-column page comes out column by column; `-layout` would interleave the
/// columns line by line), so every chunk knows its page. A page with no text layer (a scan) is rendered with `pdftoppm`
/// and read with `tesseract`. An encrypted, corrupt or empty PDF is one error naming the file; so is one of
/// more pages than `caps.pdfPages` (before any is read), one whose text passes `caps.textBytes` (at the page
/// where it does), and a page whose OCR takes longer than `caps.ocrPageTime`.
struct PDFExtractor: Sendable {
    var tools: ToolRunner
    /// Read pages without a text layer with OCR.
    var ocr = true
    var caps = ResourceCaps()

    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        let path = url.path
        let info = try tools.run(.pdfinfo, [path], for: path)
        let infoText = String(decoding: info.output, as: UTF8.self)
        guard info.status == 0 else { throw Self.failure(path: path, errors: info.errors) }
        if let encrypted = Self.field("Encrypted", in: infoText), encrypted.hasPrefix("yes") {
            // pdftotext reads PDFs encrypted without a user password; one that needs a password fails below.
            let probe = try tools.run(.pdftotext, ["-f", "1", "-l", "1", path, "-"], for: path)
            guard probe.status == 0 else {
                throw LibraryError(path: path, "is encrypted: a password is needed to read it")
            }
        }
        guard let pages = Self.field("Pages", in: infoText).flatMap({ Int($0) }), pages > 0 else {
            throw LibraryError(path: path, "has no pages")
        }
        guard pages <= caps.pdfPages else { throw caps.refusal(.pdfPages, path: path, "it has \(pages) pages") }
        let title = Self.field("Title", in: infoText).flatMap { $0.isEmpty ? nil : $0 }
        var builder = DocumentBuilder()
        var ocrPages: Set<Int> = []
        var textBytes = 0
        for page in 1...pages {
            // Reading order, not -layout: -layout sets a two-column page's columns side by side, line by line.
            let result = try tools.run(
                .pdftotext, ["-f", "\(page)", "-l", "\(page)", path, "-"], for: path, page: page)
            guard result.status == 0 else { throw Self.failure(path: path, page: page, errors: result.errors) }
            var text = Self.tidy(String(decoding: result.output, as: UTF8.self))
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, ocr {
                text = try ocrPage(path, page: page)
                ocrPages.insert(page)
            }
            textBytes += text.utf8.count
            guard textBytes <= caps.textBytes else {
                throw caps.refusal(
                    .text, path: path, page: page, "its text passes \(caps.describe(.text)) by this page")
            }
            builder.begin(page: page, headings: [])
            builder.append(text)
        }
        var document = builder.build(pageCount: pages, title: title)
        document.ocrPages = ocrPages
        return document
    }

    /// A page rendered at 300 dpi and read by tesseract, both within `caps.ocrPageTime`.
    func ocrPage(_ path: String, page: Int) throws(LibraryError) -> String {
        let deadline = ContinuousClock.now + caps.ocrPageTime
        let overrun = caps.refusal(
            .ocrPageTime, path: path, page: page, "OCR did not finish this page within \(caps.describe(.ocrPageTime))")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openresponses-ocr-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw LibraryError(path: path, page: page, "cannot make a folder for OCR: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = directory.appendingPathComponent("page").path
        let render = try tools.run(
            .pdftoppm, ["-r", "300", "-f", "\(page)", "-l", "\(page)", "-png", "-singlefile", path, prefix], for: path,
            page: page,
            within: deadline - ContinuousClock.now, overrun: overrun)
        guard render.status == 0 else { throw Self.failure(path: path, page: page, errors: render.errors) }
        return try ImageExtractor(tools: tools, caps: caps).text(
            of: prefix + ".png", for: path, page: page, within: deadline - ContinuousClock.now, overrun: overrun)
    }

    /// Form feeds and trailing spaces out; the layout's line structure kept.
    static func tidy(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{0C}", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    static func field(_ name: String, in info: String) -> String? {
        for line in info.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// poppler's error in one line: an encrypted file's "Incorrect password", a damaged one's first error.
    static func failure(path: String, page: Int? = nil, errors: String) -> LibraryError {
        if errors.contains("Incorrect password") {
            return LibraryError(path: path, "is encrypted: a password is needed to read it")
        }
        let first = errors.split(separator: "\n").first.map(String.init) ?? "poppler could not read it"
        return LibraryError(path: path, page: page, "is not a readable PDF (\(first))")
    }
}

/// Images through `tesseract` (PNG, JPEG, TIFF, WebP where it reads them).
/// An image's OCR is held to `caps.ocrPageTime`, as a page's is.
struct ImageExtractor: Sendable {
    var tools: ToolRunner
    var caps = ResourceCaps()

    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        var builder = DocumentBuilder()
        let overrun = caps.refusal(
            .ocrPageTime, path: url.path, "OCR did not finish the image within \(caps.describe(.ocrPageTime))")
        builder.append(try text(of: url.path, for: url.path, page: nil, within: caps.ocrPageTime, overrun: overrun))
        return builder.build()
    }

    func text(of image: String, for path: String, page: Int?, within budget: Duration, overrun: LibraryError)
        throws(LibraryError) -> String
    {
        let result = try tools.run(
            .tesseract, [image, "-", "--psm", "3"], for: path, page: page, within: budget, overrun: overrun)
        guard result.status == 0 else {
            let first = result.errors.split(separator: "\n").first.map(String.init) ?? "tesseract failed"
            throw LibraryError(path: path, page: page, "OCR failed: \(first)")
        }
        return String(decoding: result.output, as: UTF8.self).replacingOccurrences(of: "\u{0C}", with: "")
    }
}
