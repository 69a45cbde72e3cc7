import Foundation

/// The one error type of the wire layer. It carries everything known about the failure: what kind it
/// was (`code`), the HTTP status, OpenAI's error object, the `x-request-id`, and the underlying cause.
public struct ResponsesAPIError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a closed set of kinds that can grow without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case configuration, http, network, timeout, cancelled, truncatedStream, streamError, decoding,
                protocolViolation
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The client is not configured to send the request (for example no API key).
        public static let configuration = Code(.configuration)
        /// The server answered with a non-2xx status.
        public static let http = Code(.http)
        /// The connection failed or was reset.
        public static let network = Code(.network)
        /// Connecting or reading took longer than the configured timeout.
        public static let timeout = Code(.timeout)
        /// The caller cancelled the request.
        public static let cancelled = Code(.cancelled)
        /// The body ended before a terminal event (`response.completed`, `.incomplete` or `.failed`).
        public static let truncatedStream = Code(.truncatedStream)
        /// The stream carried an `error` event and no terminal event followed.
        public static let streamError = Code(.streamError)
        /// A body or event could not be decoded.
        public static let decoding = Code(.decoding)
        /// The server answered with something that is not the protocol (for example JSON where SSE was asked for).
        public static let protocolViolation = Code(.protocolViolation)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// A short, specific message for people.
    public var message: String
    public var status: Int?
    /// OpenAI's `error.type`, `error.code` and `error.param`, when the server sent an error object.
    public var apiType: String?
    public var apiCode: String?
    public var apiParam: String?
    public var requestID: String?
    /// When the client retried after this error: how long it waited first.
    public var retryDelay: Duration?
    public var underlying: (any Error)?

    public init(
        code: Code, message: String, status: Int? = nil, apiType: String? = nil, apiCode: String? = nil,
        apiParam: String? = nil, requestID: String? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.apiType = apiType
        self.apiCode = apiCode
        self.apiParam = apiParam
        self.requestID = requestID
        self.underlying = underlying
    }

    public var description: String {
        var parts: [String] = []
        if let status { parts.append("HTTP \(status)") }
        if let apiType { parts.append(apiType) }
        if let apiCode, apiCode != apiType { parts.append(apiCode) }
        var text = parts.isEmpty ? message : "\(parts.joined(separator: " ")): \(message)"
        if let apiParam { text += " (param: \(apiParam))" }
        if let requestID { text += " [request \(requestID)]" }
        return text
    }
}

extension ResponsesAPIError {
    /// Builds the error for a non-2xx answer from its body, which is read once and passed in.
    public static func http(status: Int, body: [UInt8], requestID: String?) -> ResponsesAPIError {
        let json = try? JSONValue.parse(body)
        let error = json?["error"]
        let message: String
        if let text = error?["message"]?.stringValue ?? error?.stringValue ?? json?["detail"]?.stringValue {
            message = text
        } else if body.isEmpty {
            message = "the server sent no body"
        } else {
            let text = String(decoding: body.prefix(300), as: UTF8.self)
            message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return ResponsesAPIError(
            code: .http, message: message, status: status, apiType: error?["type"]?.stringValue,
            apiCode: error?["code"]?.stringValue ?? error?["code"]?.intValue.map(String.init),
            apiParam: error?["param"]?.stringValue, requestID: requestID)
    }
}

extension ResponsesAPIError {
    /// Any error as one of these, knowing no transport: itself when it is one, `.cancelled` for a
    /// `CancellationError`, else `.network`. A transport's own errors come classified (see `HTTPTransport`);
    /// what else reaches a request (a file that cannot be written, a task cancelled) is wrapped by this.
    public init(wrapping error: any Error) {
        if let error = error as? ResponsesAPIError {
            self = error
        } else if error is CancellationError {
            self.init(code: .cancelled, message: "cancelled", underlying: error)
        } else {
            self.init(code: .network, message: "network error: \(error)", underlying: error)
        }
    }
}
