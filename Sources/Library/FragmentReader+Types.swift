import Foundation

/// What a fragment is read as: a file by its extension (else its first bytes), a download by its
/// Content-Type (else the URL's extension, else its first bytes). Data files (JSON, CSV) and source code
/// go as text, as they are; what is neither text nor a type the library reads is refused by name.
extension FragmentReader {
    static func type(of url: URL, source: String) throws(FragmentError) -> DocumentType {
        if let type = DocumentType(fileExtension: url.pathExtension) { return asText(type) }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 65536) ?? Data()
        } catch {
            throw FragmentError(source: source, "cannot read it: \(error.localizedDescription)")
        }
        return try sniff(head, source: source)
    }

    static func type(contentType: String?, url: URL, bytes: Data, source: String) throws(FragmentError)
        -> DocumentType
    {
        let media = (contentType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        switch media ?? "" {
        case "text/html", "application/xhtml+xml": return .html
        case "application/pdf": return .pdf
        case "application/vnd.openxmlformats-officedocument.wordprocessingml.document": return .docx
        case "text/markdown", "text/x-markdown": return .markdown
        case let type where type.hasPrefix("image/"): return .image
        case let type
        where type.hasPrefix("text/") || type.hasSuffix("json") || type.hasSuffix("xml") || type.hasSuffix("yaml"):
            return .text
        default:
            if let type = DocumentType(fileExtension: url.pathExtension) { return asText(type) }
            return try sniff(bytes, source: source)
        }
    }

    /// The type of bytes with no name: a PDF or a ZIP (read as DOCX) by their magic numbers, HTML by its
    /// first tag, text when it is UTF-8 without NUL bytes; anything else is refused.
    static func sniff(_ bytes: Data, source: String) throws(FragmentError) -> DocumentType {
        if bytes.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .docx }
        guard isText(bytes) else {
            throw FragmentError(
                source: source,
                "\(bytes.count) bytes that are not text (nor HTML, PDF or DOCX): a fragment is a document's text",
                hint: "attach a file the model reads itself with /attach in the console")
        }
        let start = String(decoding: bytes.prefix(512), as: UTF8.self).drop { $0.isWhitespace }.prefix(15).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html") ? .html : .text
    }

    /// Data files go as their text: a model reads JSON and CSV as they are.
    static func asText(_ type: DocumentType) -> DocumentType {
        [.json, .jsonl, .csv].contains(type) ? .text : type
    }

    /// The extension a temporary copy of `type` is named with.
    static func fileExtension(_ type: DocumentType) -> String {
        switch type {
        case .text, .json, .jsonl, .csv: "txt"
        case .markdown: "md"
        case .html: "html"
        case .pdf: "pdf"
        case .docx: "docx"
        case .image: "png"
        }
    }

    /// Whether the first 64 KB hold no NUL and are UTF-8 (a scalar cut at the end of the sample does not count).
    static func isText(_ bytes: Data) -> Bool {
        let head = bytes.prefix(65536)
        guard !head.contains(0) else { return false }
        guard bytes.count > head.count else { return String(validating: head, as: UTF8.self) != nil }
        return (0...3).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
    }
}
