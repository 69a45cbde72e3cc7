/// The kinds of file the library reads, by file name extension.
public enum DocumentType: String, Sendable, CaseIterable, Codable {
    case text, markdown, html, json, jsonl, csv, pdf, docx, image

    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt", "text", "log", "rst": self = .text
        case "md", "markdown", "mdown": self = .markdown
        case "html", "htm", "xhtml": self = .html
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        case "csv": self = .csv
        case "pdf": self = .pdf
        case "docx": self = .docx
        case "png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "gif": self = .image
        default: return nil
        }
    }

    /// The file name extensions each type is read from, for messages.
    public static var knownExtensions: String {
        "txt md html json jsonl csv pdf docx png jpg tiff webp"
    }
}
