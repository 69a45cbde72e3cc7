import Foundation

/// A file read one line at a time, a mebibyte from the disk at a time: a JSONL file of any size is never held
/// whole. Lines end at `\n` (a `\r` before it is dropped); the last one need not end. A line longer than
/// `maximumLine` bytes is an error naming the file and the line, not a reason to hold gigabytes.
public struct LineReader: ~Copyable {
    public struct LineTooLong: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var limit: Int
        public var description: String {
            "\(path):\(line): the line is longer than \(ByteSize.text(limit)); a line is one request"
        }
    }

    public let path: String
    private let handle: FileHandle
    private let maximumLine: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the last line returned (1 for the first).
    public private(set) var lineNumber = 0
    /// The bytes consumed so far (lines and their ends).
    public private(set) var offset = 0

    public static let chunkSize = 1 << 20

    public init(path: String, maximumLine: Int = 64 << 20) throws(ResponsesAPIError) {
        _ = try LocalFile.size(of: URL(fileURLWithPath: path))
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ResponsesAPIError(code: .configuration, message: "\(path): cannot open it")
        }
        self.path = path
        self.handle = handle
        self.maximumLine = maximumLine
    }

    deinit { try? handle.close() }

    /// The next line's bytes, or nil at the end of the file.
    public mutating func next() throws -> ArraySlice<UInt8>? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                offset += newline + 1 - start
                start = newline + 1
                lineNumber += 1
                return line
            }
            if buffer.count - start > maximumLine {
                throw LineTooLong(path: path, line: lineNumber + 1, limit: maximumLine)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                offset += buffer.count - start
                start = buffer.count
                lineNumber += 1
                return line
            }
            // Keep the unread part, then read more behind it.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            searched = buffer.count
            let chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
