import Foundation
import ResponsesAPI

/// A JSONL file written a line at a time through a buffer of a mebibyte: created (or emptied) with mode 0600,
/// never followed through a symbolic link.
public final class BatchLineWriter {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var closed = false

    public init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw ResponsesAPIError(
                code: .configuration, message: "\(path): cannot write it (\(String(cString: strerror(errno))))")
        }
        self.path = path
        buffer.reserveCapacity(1 << 20)
    }

    deinit { if !closed { _ = Foundation.close(descriptor) } }

    /// Writes `value` and a newline; returns the bytes that makes.
    public func write(_ value: JSONValue) throws -> Int {
        let before = buffer.count
        buffer.append(contentsOf: value.serialized())
        buffer.append(UInt8(ascii: "\n"))
        let count = buffer.count - before
        if buffer.count >= 1 << 20 { try flush() }
        return count
    }

    public func close() throws {
        guard !closed else { return }
        defer {
            closed = true
            _ = Foundation.close(descriptor)
        }
        try flush()
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                throw ResponsesAPIError(
                    code: .configuration, message: "\(path): cannot write it (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
