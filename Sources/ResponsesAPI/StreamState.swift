/// What the events of one stream have said so far: the one place that works out a stream's final or partial
/// response, its last sequence number, its first text's arrival and its in-stream error. The client's own
/// streams (`StreamPipeline`), the proxy's tap (`StreamTap`) and a consumer of the events (the console's
/// turn) each keep one, and read from it both how the exchange ended (`exchangeOutcome`, for the inspector)
/// and how the stream ended for its consumer (`outcome(ending:)`).
public struct StreamState: Sendable {
    /// The response of the terminal event (`response.completed`, `.incomplete` or `.failed`), once it came.
    public private(set) var final: Response?
    /// The response as last announced mid-stream (`response.created`, `.queued`, `.in_progress`): its id and
    /// whether it runs in the background are known before it ends.
    public private(set) var partial: Response?
    /// The `sequence_number` of the last event that had one (where a broken stream resumes).
    public private(set) var lastSequenceNumber: Int?
    /// The last `error` event's payload.
    public private(set) var streamError: StreamErrorPayload?
    /// When the first text delta arrived, for the events observed with their arrival.
    public private(set) var timeToFirstText: Duration?
    /// Events so far, those whose data was not JSON included (see `skip`).
    public private(set) var eventCount = 0

    public init() {}

    /// The response the stream is about: the final one, else the partial one.
    public var response: Response? { final ?? partial }

    /// One event, which arrived `offset` after the request was sent (nil when that is not known).
    public mutating func observe(_ event: ResponseStreamEvent, at offset: Duration? = nil) {
        switch event.kind {
        case .outputTextDelta, .refusalDelta:
            if timeToFirstText == nil { timeToFirstText = offset }
        case .responseCompleted(let response), .responseIncomplete(let response), .responseFailed(let response):
            final = response
        case .responseCreated(let response), .responseQueued(let response), .responseInProgress(let response):
            partial = response
        case .error(let payload):
            streamError = payload
        default:
            break
        }
        if let sequence = event.sequenceNumber { lastSequenceNumber = sequence }
        eventCount += 1
    }

    /// The events of one batch, read in place (a copy of each would retain and release its strings and
    /// data: four atomic pairs per delta, 250,000 deltas in a 50 MB answer).
    public mutating func observe(_ events: UnsafeBufferPointer<ResponseStreamEvent>) {
        for index in events.indices { observe(events[index]) }
    }

    /// An event whose data is not JSON: counted, nothing learned.
    mutating func skip() {
        eventCount += 1
    }

    /// The error of a body that ended here: nil after a terminal event, else the server's in-stream error
    /// or a truncated stream.
    public func unfinishedError(requestID: String? = nil) -> ResponsesAPIError? {
        guard final == nil else { return nil }
        if let streamError {
            return ResponsesAPIError(
                code: .streamError, message: streamError.message, apiType: streamError.type,
                apiCode: streamError.code, apiParam: streamError.param, requestID: requestID)
        }
        return ResponsesAPIError(
            code: .truncatedStream,
            message: "the stream ended before the response finished (\(eventCount) events received"
                + (lastSequenceNumber.map { ", the last with sequence_number \($0)" } ?? "") + ")",
            requestID: requestID)
    }

    /// How the exchange ended, for its recording: `error` when it failed, else what the final response says
    /// (a failed one with its error).
    public func exchangeOutcome(duration: Duration, error: ResponsesAPIError? = nil) -> ExchangeOutcome {
        var failure = error
        if failure == nil, let final, final.status == .failed {
            failure = ResponsesAPIError(
                code: .streamError, message: final.error?.message ?? streamError?.message ?? "the response failed",
                apiType: streamError?.type, apiCode: final.error?.code ?? streamError?.code)
        }
        return ExchangeOutcome(
            state: ExchangeOutcome.State(status: final?.status, error: error),
            error: failure, responseID: response.map(\.id).flatMap { $0.isEmpty ? nil : $0 },
            model: response?.model, responseStatus: final?.status?.rawValue, usage: final?.usage,
            timeToFirstText: timeToFirstText, duration: duration)
    }

    /// How the stream ended for the consumer that observed its events: `error` is what the iteration threw,
    /// nil when it ended; an iteration of the client's stream that ends without a terminal event ended
    /// because its task was cancelled.
    public func outcome(ending error: (any Error)?) -> StreamOutcome {
        let failure: ResponsesAPIError? =
            if let error {
                ResponsesAPIError(wrapping: error)
            } else if final == nil {
                ResponsesAPIError(code: .cancelled, message: "cancelled")
            } else {
                nil
            }
        return StreamOutcome(
            response: final, partialResponse: partial, lastSequenceNumber: lastSequenceNumber, error: failure)
    }
}

/// How an event stream ended for its consumer (see `StreamState.outcome(ending:)`).
public struct StreamOutcome: Sendable {
    /// The final response, if the terminal event came.
    public var response: Response?
    /// The response as last announced mid-stream.
    public var partialResponse: Response?
    /// The `sequence_number` of the last event the stream brought.
    public var lastSequenceNumber: Int?
    public var error: ResponsesAPIError?

    public init(
        response: Response?, partialResponse: Response? = nil, lastSequenceNumber: Int? = nil,
        error: ResponsesAPIError?
    ) {
        self.response = response
        self.partialResponse = partialResponse
        self.lastSequenceNumber = lastSequenceNumber
        self.error = error
    }

    /// The exchange's state as the inspector records it.
    public var state: ExchangeOutcome.State { ExchangeOutcome.State(status: response?.status, error: error) }
}
