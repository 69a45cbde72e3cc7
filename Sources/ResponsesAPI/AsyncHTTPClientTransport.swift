import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `HTTPTransport` over AsyncHTTPClient: streaming bodies on Linux and macOS alike, TLS through NIO.
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient

    public init(configuration: Configuration) {
        var config = HTTPClient.Configuration()
        config.timeout = .init(
            connect: .nanoseconds(Int64(configuration.connectTimeout.nanoseconds)),
            read: .nanoseconds(Int64(configuration.readTimeout.nanoseconds)))
        config.decompression = .enabled(limit: .none)
        config.httpVersion = .automatic
        // A refused or failed connection fails at once: the client's own retry policy (backoff, retry count,
        // WIRE-FORMAT §5) decides about retrying. Left on, AsyncHTTPClient retried by itself until the connect
        // timeout, so a wrong port took 3 × 5 s to report.
        config.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    public func execute(_ request: TransportRequest) async throws(ResponsesAPIError) -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body {
            outgoing.body =
                body.count > ByteChunks.chunkSize
                ? .stream(ByteChunks(bytes: body), length: .known(Int64(body.count))) : .bytes(ByteBuffer(bytes: body))
        }
        if let streamed = request.streamed {
            outgoing.body = .stream(streamed.chunks, length: .known(Int64(streamed.length)))
        }
        do {
            // The deadline bounds the whole exchange; silence is bounded by the configured read timeout.
            let response = try await client.execute(outgoing, timeout: .hours(24))
            let headers = response.headers.map { ($0.name, $0.value) }
            return TransportResponse(
                status: Int(response.status.code), headers: headers, body: Body(base: response.body))
        } catch {
            throw ResponsesAPIError(asyncHTTPClient: error, url: request.url)
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Wraps AsyncHTTPClient's body so its errors come out classified.
    struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: HTTPClientResponse.Body

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator
            mutating func next() async throws -> ByteBuffer? {
                do { return try await base.next() } catch { throw ResponsesAPIError(asyncHTTPClient: error) }
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
    }
}

extension Duration {
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Whole and fractional milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
