import Foundation
import NIOCore

/// A `multipart/form-data` body of text fields and one file, streamed from disk in 1 MB chunks.
///
/// MultipartKit builds whole bodies in memory; an upload must not, so the framing (a few short strings
/// around the file's bytes, RFC 7578) is written here and the file is read as it is sent.
public struct MultipartUpload: Sendable {
    public var fields: [(String, String)]
    public var fileField: String
    public var fileURL: URL
    public var fileName: String
    public var mediaType: String
    /// The part of the file to send (all of it by default; the Uploads API sends it in parts).
    public var range: Range<Int>?
    /// Called with the number of file bytes sent so far.
    public var progress: (@Sendable (Int) -> Void)?

    public static let chunkSize = 1 << 20

    public init(
        fields: [(String, String)], fileField: String = "file", fileURL: URL, fileName: String? = nil,
        mediaType: String = "application/octet-stream", range: Range<Int>? = nil,
        progress: (@Sendable (Int) -> Void)? = nil
    ) {
        self.fields = fields
        self.fileField = fileField
        self.fileURL = fileURL
        self.fileName = fileName ?? fileURL.lastPathComponent
        self.mediaType = mediaType
        self.range = range
        self.progress = progress
    }

    /// The body, or an error naming the file when it cannot be read.
    public func body() throws(ResponsesAPIError) -> StreamedBody {
        let range: Range<Int>
        if let given = self.range { range = given } else { range = 0..<(try LocalFile.size(of: fileURL)) }
        let boundary = "openresponses-" + UUID().uuidString.lowercased()
        var head = ""
        for (name, value) in fields {
            head +=
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(name))\"\r\n\r\n\(value)\r\n"
        }
        head +=
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(fileField))\"; filename=\"\(Self.escaped(fileName))\"\r\n"
        head += "Content-Type: \(mediaType)\r\n\r\n"
        let tail = "\r\n--\(boundary)--\r\n"
        let headBytes = Array(head.utf8)
        let tailBytes = Array(tail.utf8)
        let summary = Array((head + "<\(range.count) bytes of \(fileURL.path)>" + tail).utf8)
        return StreamedBody(
            contentType: "multipart/form-data; boundary=\(boundary)",
            length: headBytes.count + range.count + tailBytes.count,
            summary: summary,
            chunks: FileChunks(
                head: headBytes, url: fileURL, range: range, tail: tailBytes, chunkSize: Self.chunkSize,
                progress: progress))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
