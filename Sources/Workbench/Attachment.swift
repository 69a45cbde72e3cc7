import Foundation
import ResponsesAPI

/// A file attached to the next message: images go as `input_image`, anything else as `input_file`.
/// Small files go inline as base64 data URLs; bigger ones are uploaded first (purpose `user_data`, or
/// `vision` for images) and sent by file id. Files are checked when attached (exists, readable), so
/// nothing is sent half-built. Pasted text (`/paste`) is kept in a file too but goes as an `input_text` part.
public struct Attachment: Sendable, Hashable {
    public var url: URL
    public var size: Int
    public var mediaType: String
    /// The file's text goes as an `input_text` part, inline whatever its size (`/paste`'s text).
    public var asText = false

    /// Files up to this size go inline unless `console.inline_attachments_kb` says otherwise.
    public static let defaultInlineLimit = 8 * 1024 * 1024

    static let imageTypes = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
    ]
    static let fileTypes = [
        "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv",
        "json": "application/json",
        "html": "text/html", "xml": "application/xml",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]

    public var isImage: Bool { mediaType.hasPrefix("image/") }

    /// Checks `path` (relative to `directory`) and describes it.
    public init(path: String, relativeTo directory: URL) throws(SettingError) {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst() : path
        let url = URL(fileURLWithPath: expanded, relativeTo: directory).standardizedFileURL
        let size: Int
        do {
            size = try LocalFile.size(of: url)
        } catch {
            throw SettingError(error.message)
        }
        let ext = url.pathExtension.lowercased()
        self.url = url
        self.size = size
        self.mediaType = Self.imageTypes[ext] ?? Self.fileTypes[ext] ?? "application/octet-stream"
    }

    /// A file already checked (`/paste` wrote it).
    public init(url: URL, size: Int, mediaType: String, asText: Bool = false) {
        self.url = url
        self.size = size
        self.mediaType = mediaType
        self.asText = asText
    }

    /// The purpose an upload of this file takes.
    public var uploadPurpose: String { isImage ? "vision" : "user_data" }

    /// The content part for this file: by `fileID` when it was uploaded, else inline.
    public func contentPart(fileID: String? = nil) throws(SettingError) -> JSONValue {
        if let fileID {
            if isImage { return ["type": "input_image", "file_id": .string(fileID), "detail": "auto"] }
            return ["type": "input_file", "file_id": .string(fileID)]
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SettingError("\(url.path): cannot read it")
        }
        if asText { return ["type": "input_text", "text": .string(String(decoding: data, as: UTF8.self))] }
        let dataURL = "data:\(mediaType);base64," + data.base64EncodedString()
        if isImage { return ["type": "input_image", "image_url": .string(dataURL), "detail": "auto"] }
        return ["type": "input_file", "filename": .string(url.lastPathComponent), "file_data": .string(dataURL)]
    }

    /// The user's message: plain text, or a message whose content is the text and the attachments.
    /// `uploaded` maps attachments sent by file id to their ids.
    public static func message(text: String, attachments: [Attachment], uploaded: [URL: String] = [:])
        throws(SettingError) -> JSONValue
    {
        guard !attachments.isEmpty else { return .string(text) }
        var content: [JSONValue] = [["type": "input_text", "text": .string(text)]]
        for attachment in attachments { content.append(try attachment.contentPart(fileID: uploaded[attachment.url])) }
        return [["role": "user", "content": .array(content)]]
    }
}
