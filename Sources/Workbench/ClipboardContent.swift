import Foundation
import Library
import ResponsesAPI

/// What the clipboard offers, decided from the types its program lists (`wl-paste --list-types`, xclip's
/// `TARGETS`): an image when one of `Clipboard.imageTypes` is there, else text.
enum ClipboardChoice: Equatable {
    case image(String)
    /// Text of this type; nil: the program's default (xsel, which lists nothing).
    case text(String?)
    case empty
    /// Types, none of them an image or text.
    case neither([String])

    init(types listing: String) {
        let types = listing.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if types.isEmpty {
            self = .empty
        } else if let image = Clipboard.imageTypes.first(where: { types.contains($0) }) {
            self = .image(image)
        } else if let text = Clipboard.textTypes.first(where: { types.contains($0) })
            ?? types.first(where: { $0.hasPrefix("text/") })
        {
            self = .text(text)
        } else {
            self = .neither(types)
        }
    }
}

/// The clipboard's bytes as read: an image of one of `Clipboard.imageTypes`, or text (UTF-8, `text/plain`).
public struct ClipboardContent: Sendable, Hashable {
    public var mediaType: String
    public var bytes: [UInt8]
    /// The program that read it.
    public var tool: Clipboard.Tool

    public var isImage: Bool { mediaType.hasPrefix("image/") }

    /// The bytes start as an image of `type` does (its magic number).
    static func looksLike(_ type: String, _ bytes: [UInt8]) -> Bool {
        ContentSniffer.kind(of: Data(bytes.prefix(16))).mediaType == type
    }

    /// Their SHA-256, in hex.
    public var sha256: String { Ingest.sha256(Data(bytes)) }

    /// The file name it is kept under: its SHA-256 and its type's extension.
    public var fileName: String {
        let ext =
            switch mediaType {
            case "image/png": "png"
            case "image/jpeg": "jpg"
            case "image/gif": "gif"
            case "image/webp": "webp"
            default: "txt"
            }
        return "\(sha256).\(ext)"
    }

    /// Keeps the bytes in `directory` (made mode 0700 if missing; the file mode 0600) and returns them as an
    /// attachment for the next message: an image as `/attach` would attach the file, text as an `input_text`
    /// part of its own.
    public func attachment(savingIn directory: URL) throws(ClipboardError) -> Attachment {
        let url = directory.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if !FileManager.default.fileExists(atPath: url.path) {
                guard
                    FileManager.default.createFile(
                        atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
                else { throw CocoaError(.fileWriteUnknown) }
            }
        } catch {
            throw ClipboardError(.cannotSave(path: url.path, reason: error.localizedDescription), tool: tool)
        }
        return Attachment(url: url, size: bytes.count, mediaType: mediaType, asText: !isImage)
    }
}
