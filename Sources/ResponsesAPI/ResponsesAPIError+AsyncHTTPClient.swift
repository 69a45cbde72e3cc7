import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

extension ResponsesAPIError {
    /// An error of AsyncHTTPClient or NIO mapped onto these codes (network, timeout, cancelled,
    /// configuration); any other error as `init(wrapping:)` has it. For whoever talks to a server through
    /// AsyncHTTPClient: the client's transport, and the recording proxy for its upstream.
    /// `url`, when given, names the server in a socket error's message.
    public init(asyncHTTPClient error: any Error, url: String? = nil) {
        self =
            Self.classified(httpClientError: error) ?? Self.classified(nioError: error, url: url)
            ?? ResponsesAPIError(wrapping: error)
    }

    private static func classified(httpClientError error: any Error) -> ResponsesAPIError? {
        guard let error = error as? HTTPClientError else { return nil }
        switch error {
        case .cancelled:
            return ResponsesAPIError(code: .cancelled, message: "cancelled", underlying: error)
        case .readTimeout, .deadlineExceeded:
            return ResponsesAPIError(code: .timeout, message: "timed out waiting for the server", underlying: error)
        case .connectTimeout, .socksHandshakeTimeout, .tlsHandshakeTimeout:
            return ResponsesAPIError(code: .timeout, message: "timed out connecting to the server", underlying: error)
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
            return nil
        }
    }

    private static func classified(nioError error: any Error, url: String?) -> ResponsesAPIError? {
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
        return nil
    }
}
