import Foundation
import ResponsesAPI

/// Picks the extractor for a file by its type and runs it.
public struct Extractors: Sendable {
    let tools: ToolRunner
    /// Read scanned PDF pages with OCR.
    public var ocr = true
    /// What one file may cost: inflated ZIP members, text, pages, OCR time (and, in `Ingest`, chunks).
    public var caps = ResourceCaps()

    public init(environment: [String: String]) {
        tools = ToolRunner(environment: environment)
    }

    /// `extract` on a thread of its own (see `OwnThread`): what async code calls, since a PDF or an image
    /// runs poppler and tesseract, seconds for a scanned page.
    public func read(_ url: URL, as type: DocumentType) async throws(LibraryError) -> ExtractedDocument {
        let result = await OwnThread.run(cancellable: { (cancellation) -> Result<ExtractedDocument, LibraryError> in
            do throws(LibraryError) {
                return .success(try extract(url, as: type, cancellation: cancellation))
            } catch {
                return .failure(error)
            }
        })
        return try result.get()
    }

    /// The file's text, or an error naming the file (and the page, for a PDF page).
    public func extract(_ url: URL, as type: DocumentType) throws(LibraryError) -> ExtractedDocument {
        try extract(url, as: type, cancellation: nil)
    }

    /// `extract`, stopping the tool it runs (and starting no other) once `cancellation` is set.
    func extract(_ url: URL, as type: DocumentType, cancellation: ToolCancellation?) throws(LibraryError)
        -> ExtractedDocument
    {
        var tools = self.tools
        tools.cancellation = cancellation
        if [.text, .markdown, .json, .jsonl, .csv].contains(type), let size = Self.size(of: url), size > caps.textBytes
        {
            // Its text is its bytes, or more: refused before they are read.
            throw caps.refusal(.text, path: url.path, "it holds \(size) bytes of text")
        }
        if type == .html, let size = Self.size(of: url), size / 4 > caps.textBytes {
            // Markup is read whole: a page more than four times the text cap is refused before it is read.
            throw caps.refusal(
                .text, path: url.path, "it holds \(size) bytes of HTML, more than four times the text cap")
        }
        let document =
            switch type {
            case .text: try TextExtractor(markdown: false).extract(url)
            case .markdown: try TextExtractor(markdown: true).extract(url)
            case .html: try HTMLExtractor().extract(url)
            case .json, .jsonl, .csv: try DataExtractor(type: type, caps: caps).extract(url)
            case .pdf: try PDFExtractor(tools: tools, ocr: ocr, caps: caps).extract(url)
            case .docx: try DOCXExtractor(caps: caps).extract(url)
            case .image: try ImageExtractor(tools: tools, caps: caps).extract(url)
            }
        // Every type, whatever its extractor checked on the way.
        let bytes = document.text.utf8.count
        guard bytes <= caps.textBytes else { throw caps.refusal(.text, path: url.path, "its text is \(bytes) bytes") }
        return document
    }

    static func size(of url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue
    }
}
