import ResponsesAPI

/// How one turn (or one request of it) ended.
public struct TurnOutcome: Sendable {
    /// The final response (from the terminal event, or the non-streamed body), if one arrived.
    public var response: Response?
    /// The output text shown, complete or partial.
    public var text: String
    public var error: ResponsesAPIError?
    /// The response as last announced mid-stream (`response.created`, `.in_progress`): its id and whether
    /// it runs in the background are known before it ends.
    public var partialResponse: Response? = nil
    /// The request that produced it (the last one, for a turn of several tool rounds).
    public var request: CreateResponseRequest? = nil
    /// The `sequence_number` of the last event the stream brought (where a broken stream resumes).
    public var lastSequenceNumber: Int? = nil
    /// The passages the turn was sent with (an augmented turn's), numbered as its footnotes.
    public var sources: [TurnSource] = []
    /// The footnotes for the `[n]` the answer uses ("" for none, or a turn that was not augmented).
    public var footnotes = ""
    /// The calls the turn made to local MCP servers (`ChatSession.toolSource`), in order.
    public var toolCalls: [ToolCallRecord] = []

    public init(
        response: Response?, text: String, error: ResponsesAPIError?, partialResponse: Response? = nil,
        request: CreateResponseRequest? = nil
    ) {
        self.response = response
        self.text = text
        self.error = error
        self.partialResponse = partialResponse
        self.request = request
    }

    /// How a stream ended, with the text shown of it.
    public init(_ stream: StreamOutcome, text: String) {
        self.init(response: stream.response, text: text, error: stream.error, partialResponse: stream.partialResponse)
        lastSequenceNumber = stream.lastSequenceNumber
    }

    public var wasCancelled: Bool { error?.code == .cancelled }

    /// An outcome that never reached the network: a setting or a composition problem.
    static func refused(_ message: String, text: String = "") -> TurnOutcome {
        TurnOutcome(response: nil, text: text, error: ResponsesAPIError(code: .configuration, message: message))
    }
}
