import ResponsesAPI

/// What shows a turn as it arrives: the console's `TurnRenderer` (terminal text), or anything a test or
/// another front end supplies. `TurnRunner` and `ChatSession` feed it and never touch a terminal.
public protocol TurnRendering {
    /// The output text shown so far (complete or partial).
    var text: String { get }
    /// One streamed event.
    mutating func render(_ event: ResponseStreamEvent)
    /// A whole response at once (a turn sent with `stream: false`).
    mutating func render(response: Response)
    /// Called after each network read's events: write out what is buffered.
    mutating func flush()
    /// Ends one request's output: footnotes, and the usage line when `response` has usage.
    mutating func finish(response: Response?)
}
