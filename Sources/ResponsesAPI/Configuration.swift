import Foundation

/// Where and how the client talks to a Responses API server.
public struct Configuration: Sendable {
    public static let defaultBaseURL = "https://api.openai.com/v1"

    /// Base URL without a trailing slash, for example `https://api.openai.com/v1`.
    public var baseURL: String
    public var apiKey: String?
    public var organization: String?
    public var project: String?
    public var connectTimeout: Duration
    /// Longest silence allowed while reading a response (a stream may run much longer in total).
    public var readTimeout: Duration
    public var userAgent: String
    public var retryPolicy: RetryPolicy
    /// More headers sent with every request (a named provider's), after the standard ones.
    public var extraHeaders: [(String, String)] = []

    public init(
        baseURL: String = Configuration.defaultBaseURL, apiKey: String? = nil, organization: String? = nil,
        project: String? = nil, connectTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(600),
        userAgent: String = "openresponses/0.1", retryPolicy: RetryPolicy = .default
    ) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.apiKey = apiKey
        self.organization = organization
        self.project = project
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.userAgent = userAgent
        self.retryPolicy = retryPolicy
    }

    /// Reads `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`, and the client's
    /// own `OPENRESPONSES_MAX_RETRIES`, `OPENRESPONSES_CONNECT_TIMEOUT` and `OPENRESPONSES_TIMEOUT` (seconds)
    /// from `environment` (empty values count as unset). Throws a `.configuration` error naming the variable
    /// whose value is not a number.
    public init(environment: [String: String]) throws(ResponsesAPIError) {
        // Trimmed with the standard library: Foundation's character sets cost about 0.1 ms of each start.
        func value(_ name: String) -> String? {
            guard let raw = environment[name], let first = raw.firstIndex(where: { !$0.isWhitespace }),
                let last = raw.lastIndex(where: { !$0.isWhitespace })
            else { return nil }
            return String(raw[first...last])
        }
        func seconds(_ name: String) throws(ResponsesAPIError) -> Duration? {
            guard let text = value(name) else { return nil }
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw ResponsesAPIError(
                    code: .configuration, message: "\(name)='\(text)' is not a number of seconds greater than 0")
            }
            return .milliseconds(seconds * 1000)
        }
        var policy = RetryPolicy.default
        if let text = value("OPENRESPONSES_MAX_RETRIES") {
            guard let retries = Int(text), retries >= 0 else {
                throw ResponsesAPIError(
                    code: .configuration, message: "OPENRESPONSES_MAX_RETRIES='\(text)' is not a whole number 0 or more"
                )
            }
            policy.maxRetries = retries
        }
        let apiKey = value("OPENAI_API_KEY")
        // A key that cannot go into a header (`export KEY="$(cat a b)"`): said without the key.
        if let apiKey, apiKey.unicodeScalars.contains(where: { $0.value < 0x21 || (0x7F...0x9F).contains($0.value) }) {
            throw ResponsesAPIError(
                code: .configuration,
                message:
                    "the API key holds a line break, a space or another control character (the key is not shown); set it again without them"
            )
        }
        self.init(
            baseURL: value("OPENAI_BASE_URL") ?? Self.defaultBaseURL, apiKey: apiKey,
            organization: value("OPENAI_ORG_ID"), project: value("OPENAI_PROJECT_ID"),
            connectTimeout: try seconds("OPENRESPONSES_CONNECT_TIMEOUT") ?? .seconds(5),
            readTimeout: try seconds("OPENRESPONSES_TIMEOUT") ?? .seconds(600), retryPolicy: policy)
    }

    /// True when the base URL is OpenAI's own API, which always needs a key.
    public var isOpenAI: Bool { baseURL.hasPrefix("https://api.openai.com") }

    /// Throws a `.configuration` error when a request cannot be sent as configured.
    public func validate() throws(ResponsesAPIError) {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw ResponsesAPIError(
                code: .configuration,
                message: "OPENAI_BASE_URL '\(baseURL)' is not an http(s) URL (example: http://127.0.0.1:8321/v1)")
        }
        if apiKey == nil, isOpenAI {
            throw ResponsesAPIError(
                code: .configuration,
                message: "OPENAI_API_KEY is not set. Export it (export OPENAI_API_KEY=sk-...) or point "
                    + "OPENAI_BASE_URL at a server that needs no key.")
        }
    }

    /// Headers every request carries: authorization, organization, project, user agent.
    public var standardHeaders: [(String, String)] {
        var headers: [(String, String)] = [("User-Agent", userAgent)]
        if let apiKey { headers.append(("Authorization", "Bearer \(apiKey)")) }
        if let organization { headers.append(("OpenAI-Organization", organization)) }
        if let project { headers.append(("OpenAI-Project", project)) }
        headers.append(contentsOf: extraHeaders)
        return headers
    }
}
