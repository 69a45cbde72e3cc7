extension ExchangeOutcome.State {
    /// The state of an exchange that failed with `error`, else of one that brought a response with `status`
    /// (nil for an answer that is not a response).
    public init(status: ResponseStatus?, error: ResponsesAPIError? = nil) {
        if let error {
            self = error.code == .cancelled ? .cancelled : .failed
            return
        }
        switch status {
        case .incomplete?: self = .incomplete
        case .failed?, .cancelled?: self = .failed
        default: self = .completed
        }
    }
}

extension ExchangeOutcome {
    /// An exchange that ended with `error`: cancelled or failed.
    public init(failure error: ResponsesAPIError, duration: Duration) {
        self.init(state: State(status: nil, error: error), error: error, duration: duration)
    }
}
