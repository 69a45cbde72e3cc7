import ResponsesAPI

/// What shows a turn as it arrives: the console's `TurnRenderer` (terminal text), or anything a test or
/// another front end supplies. `TurnRunner` and `ChatSession` feed it and never touch a terminal.
public protocol TurnRendering {
    /// The output text shown so far (complete or partial).
    var text: String { get }
    /// One streamed event.
    mutating func render(_ event: ResponseStreamEvent)
    /// A network read's events, in order (by default each through `render(_:)`). Handed over in place:
    /// through the generic runner, an event passed on its own is copied first (its strings and data
    /// retained and released), which a renderer of its own type avoids by reading them here.
    mutating func render(batch events: UnsafeBufferPointer<ResponseStreamEvent>)
    /// A whole response at once (a turn sent with `stream: false`).
    mutating func render(response: Response)
    /// Called after each network read's events: write out what is buffered.
    mutating func flush()
    /// Ends one request's output: footnotes, and the usage line when `response` has usage.
    mutating func finish(response: Response?)
}

extension TurnRendering {
    public mutating func render(batch events: UnsafeBufferPointer<ResponseStreamEvent>) {
        for index in events.indices { render(events[index]) }
    }
}
