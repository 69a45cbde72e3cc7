import Foundation
import NIOCore

/// A request body sent in chunks as it is read (a file upload): never held whole in memory. The bytes are
/// read when the transport asks for them (so a slow network slows the reading, and memory stays flat),
/// and afresh for every attempt, so a retried request reads the file again. The inspector stores
/// `summary` instead of the bytes.
public struct StreamedBody: Sendable {
    public var contentType: String
    public var length: Int
    public var chunks: FileChunks
    /// What is recorded in place of the body (the multipart framing, with the file's bytes left out).
    public var summary: [UInt8]

    public init(contentType: String, length: Int, summary: [UInt8], chunks: FileChunks) {
        self.contentType = contentType
        self.length = length
        self.summary = summary
        self.chunks = chunks
    }
}

/// The body of a request: JSON bytes, or a body streamed from a file.
public enum RequestBody: Sendable {
    case json([UInt8])
    case streamed(StreamedBody)
}

/// `head`, then bytes `range` of a file in chunks, then `tail`, read on demand.
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    public var head: [UInt8]
    public var url: URL
    public var range: Range<Int>
    public var tail: [UInt8]
    public var chunkSize: Int
    /// Called with the number of file bytes read so far.
    public var progress: (@Sendable (Int) -> Void)?

    public final class AsyncIterator: AsyncIteratorProtocol {
        let chunks: FileChunks
        var handle: FileHandle?
        var sent = 0
        var stage = 0

        init(_ chunks: FileChunks) {
            self.chunks = chunks
        }

        deinit { try? handle?.close() }

        public func next() async throws -> ByteBuffer? {
            switch stage {
            case 0:
                stage = 1
                if !chunks.head.isEmpty { return ByteBuffer(bytes: chunks.head) }
                return try await next()
            case 1:
                if sent >= chunks.range.count {
                    stage = 2
                    try? handle?.close()
                    handle = nil
                    return try await next()
                }
                try Task.checkCancellation()
                if handle == nil {
                    let opened = try FileHandle(forReadingFrom: chunks.url)
                    try opened.seek(toOffset: UInt64(chunks.range.lowerBound))
                    handle = opened
                }
                let wanted = Swift.min(chunks.chunkSize, chunks.range.count - sent)
                guard let data = try handle?.read(upToCount: wanted), !data.isEmpty else {
                    throw ResponsesAPIError(
                        code: .configuration, message: "\(chunks.url.path) got shorter while it was sent")
                }
                sent += data.count
                chunks.progress?(sent)
                return ByteBuffer(bytes: data)
            case 2:
                stage = 3
                return chunks.tail.isEmpty ? nil : ByteBuffer(bytes: chunks.tail)
            default:
                return nil
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(self) }
}

/// A body already in memory, sent a chunk at a time: each chunk is copied into a buffer only when the
/// connection asks for it, so a large request (a piped document of tens of megabytes) is not held twice
/// (AsyncHTTPClient copies a whole contiguous body into one buffer before it sends a byte).
struct ByteChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    /// Bodies larger than this go in chunks of this size; smaller ones in one buffer.
    static let chunkSize = 1 << 20
    let bytes: [UInt8]

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        var offset = 0

        mutating func next() async -> ByteBuffer? {
            guard offset < bytes.count else { return nil }
            let end = Swift.min(offset + ByteChunks.chunkSize, bytes.count)
            defer { offset = end }
            return bytes.withUnsafeBufferPointer { ByteBuffer(bytes: UnsafeBufferPointer(rebasing: $0[offset..<end])) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}
