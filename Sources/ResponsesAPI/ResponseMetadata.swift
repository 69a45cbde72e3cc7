/// What the head of an answer says beyond its body: status, request id, processing time and rate limits.
/// Header names are compared case-insensitively.
public struct ResponseMetadata: Sendable, Hashable {
    public var status: Int
    public var headers: [Header]
    /// `x-request-id`: quote it to OpenAI support.
    public var requestID: String?
    /// `openai-processing-ms`.
    public var processingTime: Duration?
    /// The `x-ratelimit-*` family (sent on non-streaming `POST /responses` only).
    public var rateLimits: RateLimits?

    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    public init(status: Int, headers: [(String, String)]) {
        self.status = status
        self.headers = headers.map { Header(name: $0.0, value: $0.1) }
        let value = headers.headerValue
        requestID = value("x-request-id")
        processingTime = value("openai-processing-ms").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .map { Duration.milliseconds($0) }
        rateLimits = RateLimits(headers: value)
    }

    public func header(_ name: String) -> String? {
        headers.map { ($0.name, $0.value) }.headerValue(name)
    }
}

/// `x-ratelimit-limit-requests`, `-tokens`, `x-ratelimit-remaining-*` and `x-ratelimit-reset-*`.
public struct RateLimits: Sendable, Hashable {
    public var limitRequests: Int?
    public var limitTokens: Int?
    public var remainingRequests: Int?
    public var remainingTokens: Int?
    /// When the request budget is whole again (`6m0s`, `1m7.5s`, `2ms`).
    public var resetRequests: Duration?
    public var resetTokens: Duration?

    init?(headers value: (String) -> String?) {
        func int(_ name: String) -> Int? { value(name).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        limitRequests = int("x-ratelimit-limit-requests")
        limitTokens = int("x-ratelimit-limit-tokens")
        remainingRequests = int("x-ratelimit-remaining-requests")
        remainingTokens = int("x-ratelimit-remaining-tokens")
        resetRequests = value("x-ratelimit-reset-requests").flatMap(Self.parseDuration)
        resetTokens = value("x-ratelimit-reset-tokens").flatMap(Self.parseDuration)
        if limitRequests == nil, limitTokens == nil, remainingRequests == nil, remainingTokens == nil,
            resetRequests == nil, resetTokens == nil
        {
            return nil
        }
    }

    /// Parses a Go duration as OpenAI sends it: `0s`, `2ms`, `6m0s`, `1m7.5s`, `1h2m3s`, `250us`.
    public static func parseDuration(_ text: String) -> Duration? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        var total = 0.0  // milliseconds
        var number = ""
        var index = text.startIndex
        var sawUnit = false
        while index < text.endIndex {
            let character = text[index]
            if character.isNumber || character == "." {
                number.append(character)
                index = text.index(after: index)
                continue
            }
            var unit = ""
            while index < text.endIndex, !text[index].isNumber, text[index] != "." {
                unit.append(text[index])
                index = text.index(after: index)
            }
            guard let value = Double(number) else { return nil }
            let scale: Double
            switch unit {
            case "h": scale = 3_600_000
            case "m": scale = 60_000
            case "s": scale = 1000
            case "ms": scale = 1
            case "us", "µs": scale = 0.001
            case "ns": scale = 0.000_001
            default: return nil
            }
            total += value * scale
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            // A bare number: seconds.
            guard let value = Double(number) else { return nil }
            total += value * 1000
        } else if !sawUnit {
            return nil
        }
        return .milliseconds(total)
    }
}
