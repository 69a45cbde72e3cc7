import Foundation

/// When and how long to wait before sending a failed request again, as OpenAI's official SDKs do:
/// 408, 409, 429 and 5xx answers and connection errors are retried (before any byte of a body has been
/// used); `x-should-retry` overrides the status; the server's `retry-after-ms` or `retry-after` (seconds,
/// or an HTTP date) is honoured up to `maximumServerDelay`, and a longer request means no retry at all;
/// otherwise the wait is `min(initialDelay · 2^n, maximumDelay)` less up to `jitter` of it.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt (so `maxRetries + 1` attempts at most).
    public var maxRetries: Int
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// The longest wait a server may ask for and still be obeyed.
    public var maximumServerDelay: Duration
    /// The fraction of a backoff delay that is randomly taken off (0.25: between 75 % and 100 %).
    public var jitter: Double

    public init(
        maxRetries: Int = 2, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8),
        maximumServerDelay: Duration = .seconds(120), jitter: Double = 0.25
    ) {
        self.maxRetries = max(0, maxRetries)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumServerDelay = maximumServerDelay
        self.jitter = jitter
    }

    public static let `default` = RetryPolicy()
    public static let none = RetryPolicy(maxRetries: 0)

    /// What to do after an attempt failed.
    public enum Decision: Sendable, Hashable {
        case retry(after: Duration)
        /// Not retried; `reason` says why when it is worth telling (for example a wait too long to honour).
        case giveUp(reason: String?)
    }

    /// The decision after an HTTP answer with a non-2xx `status` and its `headers`, on retry number
    /// `retry` (0 for the first retry).
    public func decision(
        status: Int, headers: [(String, String)], retry: Int, now: Date = Date(), random: Double
    ) -> Decision {
        guard retry < maxRetries else { return .giveUp(reason: nil) }
        let shouldRetry = Self.header("x-should-retry", in: headers)?.lowercased()
        if shouldRetry == "false" { return .giveUp(reason: nil) }
        if shouldRetry != "true" {
            guard status == 408 || status == 409 || status == 429 || status >= 500 else { return .giveUp(reason: nil) }
        }
        if let asked = Self.serverDelay(headers: headers, now: now) {
            if asked > maximumServerDelay {
                return .giveUp(
                    reason: "the server asks to wait \(Self.describe(asked)) before retrying, longer than the "
                        + "\(Self.describe(maximumServerDelay)) this client waits; not retried")
            }
            if asked > .zero { return .retry(after: asked) }
        }
        return .retry(after: backoff(retry: retry, random: random))
    }

    /// The decision after a connection error or timeout before the answer's head arrived.
    public func decisionAfterConnectionError(retry: Int, random: Double) -> Decision {
        retry < maxRetries ? .retry(after: backoff(retry: retry, random: random)) : .giveUp(reason: nil)
    }

    func backoff(retry: Int, random: Double) -> Duration {
        let base = initialDelay * Double(1 << min(retry, 20))
        let capped = min(base, maximumDelay)
        return capped * (1 - jitter * min(max(random, 0), 1))
    }

    /// `retry-after-ms` (milliseconds), else `retry-after` (seconds, fractions allowed, or an HTTP date).
    static func serverDelay(headers: [(String, String)], now: Date) -> Duration? {
        if let text = header("retry-after-ms", in: headers),
            let milliseconds = Double(text.trimmingCharacters(in: .whitespaces)),
            milliseconds.isFinite, milliseconds >= 0
        {
            return .milliseconds(milliseconds)
        }
        guard let text = header("retry-after", in: headers)?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 { return .milliseconds(seconds * 1000) }
        if let date = httpDate(text) {
            let seconds = date.timeIntervalSince(now)
            return .milliseconds(max(0, seconds) * 1000)
        }
        return nil
    }

    /// Parses an HTTP date (IMF-fixdate, `Wed, 21 Oct 2015 07:28:00 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    static func header(_ name: String, in headers: [(String, String)]) -> String? {
        headers.headerValue(name)
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.milliseconds / 1000
        if seconds >= 120 { return "\(Int((seconds / 60).rounded())) min" }
        if seconds >= 10 { return "\(Int(seconds.rounded())) s" }
        return String(format: "%.1f s", seconds)
    }
}
