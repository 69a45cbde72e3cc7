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
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
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
            throw Self.classify(error, url: request.url)
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Maps AsyncHTTPClient and NIO errors onto `ResponsesAPIError` codes (network, timeout, cancelled).
    /// `url`, when given, names the server in a socket error's message.
    public static func classify(_ error: any Error, url: String? = nil) -> ResponsesAPIError {
        if let error = error as? ResponsesAPIError { return error }
        if error is CancellationError {
            return ResponsesAPIError(code: .cancelled, message: "cancelled", underlying: error)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled:
                return ResponsesAPIError(code: .cancelled, message: "cancelled", underlying: error)
            case .readTimeout, .deadlineExceeded:
                return ResponsesAPIError(code: .timeout, message: "timed out waiting for the server", underlying: error)
            case .connectTimeout, .socksHandshakeTimeout, .tlsHandshakeTimeout:
                return ResponsesAPIError(
                    code: .timeout, message: "timed out connecting to the server", underlying: error)
            case .remoteConnectionClosed:
                return ResponsesAPIError(code: .network, message: "the server closed the connection", underlying: error)
            default:
                // A header value with a line break or a control character in it: its values are not shown
                // (one may be the key), and sending again cannot help.
                let described = "\(error)"
                if described.hasPrefix("HTTPClientError.invalidHeaderFieldValues") {
                    return ResponsesAPIError(
                        code: .configuration,
                        message:
                            "a request header's value holds a line break or another character a header cannot carry (the value is not shown: it may be a key)"
                    )
                }
                if described.hasPrefix("HTTPClientError.invalidHeaderFieldNames") {
                    return ResponsesAPIError(
                        code: .configuration,
                        message:
                            "a request header's name is not a valid header name: \(described.dropFirst("HTTPClientError.".count))"
                    )
                }
            }
        }
        if let error = error as? NIOConnectionError {
            let reason: String
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                reason = ": the name does not resolve"
            } else if let failure = error.connectionErrors.first?.error as? IOError {
                reason = ": " + String(cString: strerror(failure.errnoCode)).lowercased()
            } else {
                reason = ""
            }
            return ResponsesAPIError(
                code: .network, message: "cannot connect to \(error.host):\(error.port)\(reason)", underlying: error)
        }
        if let error = error as? IOError {
            // NIO's own description reads "connection reset (error set): Connection refused) (errno: 111)".
            let reason = String(cString: strerror(error.errnoCode)).lowercased()
            if let url, let components = URLComponents(string: url), let host = components.host {
                let port = components.port ?? (components.scheme == "https" ? 443 : 80)
                return ResponsesAPIError(
                    code: .network, message: "network error with \(host):\(port): \(reason)", underlying: error)
            }
            return ResponsesAPIError(code: .network, message: "network error: \(reason)", underlying: error)
        }
        return ResponsesAPIError(code: .network, message: "network error: \(error)", underlying: error)
    }

    /// Wraps AsyncHTTPClient's body so its errors come out classified.
    struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: HTTPClientResponse.Body

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator
            mutating func next() async throws -> ByteBuffer? {
                do { return try await base.next() } catch { throw AsyncHTTPClientTransport.classify(error) }
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
