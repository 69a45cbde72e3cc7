import Foundation

/// Watches every HTTP exchange the clients make. The inspector is one; the wire layer knows nothing
/// else about it. Every method except `exchangeWillStart` and `didFinish` is called on the hot path
/// and must return at once (hand the work off, never block).
public protocol ExchangeObserver: Sendable {
    /// Called before the request is sent; returns the recording that receives the rest of the exchange.
    func exchangeWillStart(_ request: ExchangeRequest) async -> any ExchangeRecording
}

/// The rest of one exchange, as it happens.
public protocol ExchangeRecording: Sendable {
    func didReceiveHead(_ head: ExchangeResponseHead)
    /// The server-sent events of one network read, in order, each with the exact bytes of its data
    /// (one call per read rather than per event: a long stream is thousands of calls, not hundreds of
    /// thousands).
    func didReceiveEvents(_ events: RecordedEvents)
    /// The whole body of an answer that is not a stream (JSON, or an error body).
    func didReceiveBody(_ body: [UInt8])
    /// The end of the exchange, whatever it was. Returns when the outcome is stored.
    func didFinish(_ outcome: ExchangeOutcome) async
    /// Returns once the recording holds no more than its limit of events it has not stored yet. The client
    /// calls it after handing over each read's events, so a stream that arrives faster than the disk takes
    /// it (a local server at 100 MB/s) waits for the writer instead of queueing in memory without bound.
    /// An API stream, at kilobytes per second, never waits.
    func waitForWriter() async
}

extension ExchangeRecording {
    /// A recording that keeps nothing in memory never makes the stream wait.
    public func waitForWriter() async {}
}

/// A request about to be sent, with its exact bytes.
public struct ExchangeRequest: Sendable {
    public var startedAt: Date
    public var method: String
    public var url: String
    /// Headers as sent, secrets included: the observer must redact before it stores anything.
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Values that must never be stored anywhere (the API key): an observer replaces every occurrence.
    public var secrets: [String]
    public var context: ExchangeContext
    /// 0 for the first attempt, 1 for the first retry, and so on.
    public var attempt: Int

    public init(
        startedAt: Date, method: String, url: String, headers: [(String, String)], body: [UInt8],
        secrets: [String], context: ExchangeContext, attempt: Int = 0
    ) {
        self.startedAt = startedAt
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.secrets = secrets
        self.context = context
        self.attempt = attempt
    }
}

/// What the caller knows about why a request is made, as labels kept beside the exchange. The wire layer
/// passes them to the observer without reading them.
public struct ExchangeContext: Sendable, Hashable {
    /// Names and values for the observer (the inspector stores `preset`, `session` and `replay_of`).
    public var labels: [String: String]
    /// Whom the request was made for, when the caller knows: the user the recording proxy's `--tokens-file`
    /// matched to the client's token. Nil for the console's own requests.
    public var user: String?

    public init(labels: [String: String] = [:], user: String? = nil) {
        self.labels = labels
        self.user = user
    }
}

public struct ExchangeResponseHead: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    /// Time from sending the request to the head's arrival.
    public var timeToFirstByte: Duration

    public init(status: Int, headers: [(String, String)], timeToFirstByte: Duration) {
        self.status = status
        self.headers = headers
        self.timeToFirstByte = timeToFirstByte
    }
}

/// One recorded event with its own copy of the data (an element of `RecordedEvents`).
public struct RecordedEvent: Sendable {
    /// Position in the stream as received, from 0.
    public var index: Int
    /// Arrival time since the request was sent.
    public var offset: Duration
    /// The JSON `type` (or the SSE event name when the data is not JSON).
    public var type: String
    public var sequenceNumber: Int?
    /// The exact bytes of the event's data.
    public var data: [UInt8]
    /// The text the event carries, already decoded by the client (`ResponseStreamEvent.carriedText`), so
    /// an observer that indexes text need not parse the event again. Which of it to index is the
    /// observer's rule.
    public var text: String?

    public init(
        index: Int, offset: Duration, type: String, sequenceNumber: Int?, data: [UInt8], text: String? = nil
    ) {
        self.index = index
        self.offset = offset
        self.type = type
        self.sequenceNumber = sequenceNumber
        self.data = data
        self.text = text
    }
}

/// How an exchange ended, with what was learned from it.
public struct ExchangeOutcome: Sendable {
    public enum State: String, Sendable {
        /// The response completed (2xx and, for a stream, `response.completed`).
        case completed
        /// The response ended as `incomplete` (for example max_output_tokens).
        case incomplete
        /// An HTTP error, a network error, a failed response or a broken stream.
        case failed
        /// The caller cancelled it.
        case cancelled
    }

    public var state: State
    public var error: ResponsesAPIError?
    public var responseID: String?
    public var model: String?
    public var responseStatus: String?
    public var usage: Usage?
    public var timeToFirstText: Duration?
    public var duration: Duration

    public init(
        state: State, error: ResponsesAPIError? = nil, responseID: String? = nil, model: String? = nil,
        responseStatus: String? = nil, usage: Usage? = nil, timeToFirstText: Duration? = nil, duration: Duration
    ) {
        self.state = state
        self.error = error
        self.responseID = responseID
        self.model = model
        self.responseStatus = responseStatus
        self.usage = usage
        self.timeToFirstText = timeToFirstText
        self.duration = duration
    }
}
