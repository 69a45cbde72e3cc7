/// One event dispatched by `SSEDecoder`, with its `data` kept as the exact bytes that arrived
/// (multi-line data joined with LF, as the WHATWG rules say).
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, or nil when the event had none (data-only streams).
    public var event: String?
    /// The `data:` field(s), joined with LF, without the final LF.
    public var data: [UInt8]
    /// The last event id seen so far in the stream (it persists across events).
    public var id: String?
    /// The `retry:` field of this event, in milliseconds, when it carried one.
    public var retry: Int?
    /// For a long line read in pieces by `RepeatSkimmer`: `data` holds the line without the texts it
    /// repeats, and these say where each goes back (empty for every other event).
    var repeats: [RepeatSkimmer.Repeat] = []

    public init(event: String? = nil, data: [UInt8], id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    init(event: String?, data: [UInt8], id: String?, retry: Int?, repeats: [RepeatSkimmer.Repeat]) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.repeats = repeats
    }

    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.init(event: event, data: Array(data.utf8), id: id, retry: retry)
    }

    public var dataString: String { String(decoding: data, as: UTF8.self) }

    /// True for `data: [DONE]`, the end marker some compatible servers send (OpenAI does not).
    public var isDoneMarker: Bool {
        data.count >= 6 && data.starts(with: Self.doneMarker)
    }

    private static let doneMarker: [UInt8] = Array("[DONE]".utf8)
}
