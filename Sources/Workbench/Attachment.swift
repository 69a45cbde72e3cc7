import Foundation
import ResponsesAPI

/// A file attached to the next message: images go as `input_image`, anything else as `input_file`, both
/// inline as base64 data URLs. Files are checked when attached (exists, readable, not too big), so
/// nothing is sent half-built.
public struct Attachment: Sendable, Hashable {
    public var url: URL
    public var size: Int
    public var mediaType: String

    /// The largest file sent inline (the API takes requests up to about 50 MB; base64 adds a third).
    public static let inlineLimit = 32 * 1024 * 1024

    static let imageTypes = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"]
    static let fileTypes = [
        "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
        "html": "text/html", "xml": "application/xml", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]

    public var isImage: Bool { mediaType.hasPrefix("image/") }

    /// Checks `path` (relative to `directory`) and describes it.
    public init(path: String, relativeTo directory: URL) throws(SettingError) {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst() : path
        let url = URL(fileURLWithPath: expanded, relativeTo: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SettingError("\(url.path): no such file")
        }
        guard !isDirectory.boolValue else { throw SettingError("\(url.path) is a directory; attach the files in it") }
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw SettingError("\(url.path): cannot read it (permissions)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= Self.inlineLimit else {
            throw SettingError("\(url.path) is \(size / 1_048_576) MB; files above \(Self.inlineLimit / 1_048_576) MB are not sent inline")
        }
        let ext = url.pathExtension.lowercased()
        self.url = url
        self.size = size
        self.mediaType = Self.imageTypes[ext] ?? Self.fileTypes[ext] ?? "application/octet-stream"
    }

    /// The content part for this file.
    public func contentPart() throws(SettingError) -> JSONValue {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw SettingError("\(url.path): cannot read it") }
        let dataURL = "data:\(mediaType);base64," + data.base64EncodedString()
        if isImage { return ["type": "input_image", "image_url": .string(dataURL), "detail": "auto"] }
        return ["type": "input_file", "filename": .string(url.lastPathComponent), "file_data": .string(dataURL)]
    }

    /// The user's message: plain text, or a message whose content is the text and the attachments.
    public static func message(text: String, attachments: [Attachment]) throws(SettingError) -> JSONValue {
        guard !attachments.isEmpty else { return .string(text) }
        var content: [JSONValue] = [["type": "input_text", "text": .string(text)]]
        for attachment in attachments { content.append(try attachment.contentPart()) }
        return [["role": "user", "content": .array(content)]]
    }
}
