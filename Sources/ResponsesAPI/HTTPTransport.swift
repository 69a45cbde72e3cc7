import Foundation
import NIOCore

/// A request as it goes over the wire.
public struct TransportRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: [UInt8]?
    /// A body streamed from a file instead of `body`.
    public var streamed: StreamedBody?

    public init(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        streamed: StreamedBody? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.streamed = streamed
    }
}

/// The head of an answer plus its body as a sequence of byte chunks, in arrival order.
public struct TransportResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: any AsyncSequence<ByteBuffer, any Error> & Sendable

    public init(status: Int, headers: [(String, String)], body: any AsyncSequence<ByteBuffer, any Error> & Sendable) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.headerValue(name)
    }
}

/// Sends HTTP requests. The project has one implementation over AsyncHTTPClient; tests use it too,
/// against a real server on loopback.
///
/// A transport's errors come out classified: `execute` and the answer's `body` throw only
/// `ResponsesAPIError`, so the client never needs to know which library carries the bytes (what else
/// fails around a request, it wraps with `ResponsesAPIError(wrapping:)`).
public protocol HTTPTransport: Sendable {
    /// Sends `request`; returns once the head has arrived. Throws `ResponsesAPIError` (network, timeout, cancelled).
    func execute(_ request: TransportRequest) async throws(ResponsesAPIError) -> TransportResponse
    /// Releases connections and threads. Call once, when no request is running.
    func shutdown() async
}
