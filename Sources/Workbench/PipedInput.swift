import Foundation
import ResponsesAPI

/// What was piped on standard input, measured before anything is sent: text (valid UTF-8 with no NUL byte),
/// a file the API takes by its content (an image as `input_image`, a PDF as `input_file`, recognised by its
/// first bytes, not by a name it does not have), or bytes that cannot go at all, refused with their size and
/// what they look like.
public enum PipedInput: Sendable, Equatable {
    case text(String)
    case file(PipedFile)

    /// Classifies `bytes`. Text is decoded once, after `checkText` has seen its byte count (so text that is
    /// refused for its size is never copied); a file keeps its bytes; anything else is an error naming its
    /// size and kind. `inlineLimit` is the largest file that goes inline (`console.inline_attachments_kb`).
    public static func classify(
        _ bytes: Data, inlineLimit: Int = Attachment.defaultInlineLimit,
        checkText: (Int) throws(InputRefusal) -> Void = { _ in }
    ) throws(InputRefusal) -> PipedInput {
        let kind = ContentSniffer.kind(of: bytes)
        if let mediaType = kind.mediaType {
            guard bytes.count <= inlineLimit else {
                throw InputRefusal(
                    "stdin: \(ByteSize.text(bytes.count)) \(kind.name), over the \(ByteSize.text(inlineLimit)) "
                        + "that go inline (console.inline_attachments_kb): nothing was sent",
                    hint: "save it to a file and attach it in the console (/attach FILE), which uploads it first")
            }
            return .file(PipedFile(bytes: bytes, mediaType: mediaType, kindName: kind.name))
        }
        if !bytes.containsNUL, bytes.startsAsUTF8 {
            try checkText(bytes.count)
            if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        }
        throw InputRefusal(
            "stdin: \(ByteSize.text(bytes.count)) of \(kind.name) (not UTF-8 text, and not an image or a PDF "
                + "the API takes): nothing was sent",
            hint: "turn it into text first, or add it to the library (openresponses library add FILE)")
    }
}

/// A file piped on stdin, sent inline as a data URL.
public struct PipedFile: Sendable, Equatable {
    public var bytes: Data
    public var mediaType: String
    /// What it is, for messages ("PNG image", "PDF document").
    public var kindName: String

    public var isImage: Bool { mediaType.hasPrefix("image/") }

    /// The content part: `input_image` for an image, `input_file` (named `stdin.pdf`) for a PDF.
    public var contentPart: JSONValue {
        let dataURL = "data:\(mediaType);base64," + bytes.base64EncodedString()
        if isImage { return ["type": "input_image", "image_url": .string(dataURL), "detail": "auto"] }
        return ["type": "input_file", "filename": "stdin.pdf", "file_data": .string(dataURL)]
    }

    /// The user's message: the prompt (when there is one) and the file.
    public func message(prompt: String?) -> JSONValue {
        var content: [JSONValue] = []
        if let prompt { content.append(["type": "input_text", "text": .string(prompt)]) }
        content.append(contentPart)
        return [["role": "user", "content": .array(content)]]
    }
}

/// Piped input that cannot be sent as it is: the message names its size and kind (or its tokens and the
/// limit), and nothing has been sent. A usage error: the input is what is wrong.
public struct InputRefusal: UserFacingError, Equatable, CustomStringConvertible {
    public var userMessage: String
    public var hint: String?
    public var exitStatus: ExitStatus { .usage }
    public var description: String { userMessage }

    public init(_ message: String, hint: String? = nil) {
        self.userMessage = message
        self.hint = hint
    }
}

/// What a run of bytes is, from its first bytes (the magic numbers `file(1)` uses).
enum ContentSniffer {
    struct Kind: Equatable {
        var name: String
        /// The media type the API takes it as; nil for kinds it does not take.
        var mediaType: String?
    }

    static func kind(of bytes: Data) -> Kind {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count
                && bytes[bytes.startIndex + offset..<bytes.startIndex + offset + magic.count].elementsEqual(magic)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return Kind(name: "PNG image", mediaType: "image/png")
        }
        if starts([0xFF, 0xD8, 0xFF]) { return Kind(name: "JPEG image", mediaType: "image/jpeg") }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            return Kind(name: "GIF image", mediaType: "image/gif")
        }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            return Kind(name: "WebP image", mediaType: "image/webp")
        }
        if starts(Array("%PDF-".utf8)) { return Kind(name: "PDF document", mediaType: "application/pdf") }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return Kind(name: "ZIP archive (DOCX, XLSX, JAR and the like)") }
        if starts([0x1F, 0x8B]) { return Kind(name: "gzip data") }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return Kind(name: "ELF executable") }
        if starts(Array("SQLite format 3".utf8)) { return Kind(name: "SQLite database") }
        return Kind(name: "binary data")
    }
}

extension Data {
    /// Whether the first 64 KB are valid UTF-8 (a sequence cut at the end of the sample does not count):
    /// enough to tell text from binary before the whole is decoded.
    var startsAsUTF8: Bool {
        var end = Swift.min(count, 65536)
        if end < count {
            // Back off to the start of the scalar the sample cuts (at most three continuation bytes).
            var back = 0
            while back < 3, end > 0, self[startIndex + end] & 0xC0 == 0x80 {
                end -= 1
                back += 1
            }
        }
        return String(validating: self[startIndex..<startIndex + end], as: UTF8.self) != nil
    }

    /// Whether a NUL byte is anywhere in the data (memchr, not a loop over `Data`'s index).
    var containsNUL: Bool {
        withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return false }
            return memchr(base, 0, raw.count) != nil
        }
    }
}
