/// An event stream watched from the side, as the recording proxy watches a stream it passes on: the bytes
/// go through the same `SSEDecoder` and event decoding as the client's own streams (`StreamPipeline`), and
/// come out as the `RecordedEvents` an observer takes, with the exchange's outcome at the end. It never
/// changes or holds back the bytes; whoever feeds it forwards them as they are.
///
/// One per stream, used by the one task that forwards it.
public struct StreamTap {
    private var decoder = SSEDecoder()
    private var state = StreamState()
    private let longStrings = LongStrings()
    private var recorded = RecordedEvents()
    /// Whether any event was a Responses one (`response.*`): other streams (Chat Completions through the
    /// proxy) have no terminal event to wait for.
    private var sawResponseEvent = false
    /// The deltas' texts: a final event's repeats of them are not decoded and go to the recording cut
    /// out (as the client's own streams do; see `RepeatedText`), unless a secret is about.
    private var deltaTexts = DeltaTexts()
    private let secrets: ByteSearch.Needles

    /// `secrets`: the keys the exchange carries (the recording redacts them; a final event in which one
    /// occurs is recorded whole).
    public init(secrets: [String] = []) {
        self.secrets = ByteSearch.Needles(ByteSearch.secrets(secrets))
        longStrings.omitsRepeats = true
    }

    /// Events so far.
    public var eventCount: Int { state.eventCount }

    /// One read's bytes, received `offset` after the request was sent; returns the events it completed.
    public mutating func push(_ bytes: UnsafeRawBufferPointer, at offset: Duration) -> RecordedEvents {
        var decoder = self.decoder
        decoder.longLineHint = longStrings.finalLineHint
        // A final event's line is read in pieces as it passes, never held whole (the tap keeps no text).
        if longStrings.deltaTextBytes >= longStrings.threshold {
            decoder.skimCandidates = deltaTexts.skimCandidates(threshold: longStrings.threshold)
        }
        self.decoder = SSEDecoder()
        decoder.push(bytes) { observe($0, at: offset) }
        self.decoder = decoder
        return take()
    }

    /// The end of the body: the last event if it lacked its blank line.
    public mutating func finish(at offset: Duration) -> RecordedEvents {
        var decoder = self.decoder
        self.decoder = SSEDecoder()
        decoder.finish { observe($0, at: offset) }
        return take()
    }

    /// How the stream ended: `error` when forwarding failed (cancelled when the client left), else what the
    /// events said: a Responses stream that stopped before its terminal event is a failure, as the client
    /// sees it.
    public func outcome(duration: Duration, error: ResponsesAPIError? = nil, requestID: String? = nil)
        -> ExchangeOutcome
    {
        if error == nil, sawResponseEvent, let unfinished = state.unfinishedError(requestID: requestID) {
            return state.exchangeOutcome(duration: duration, error: unfinished)
        }
        return state.exchangeOutcome(duration: duration, error: error)
    }

    private mutating func take() -> RecordedEvents {
        defer { recorded = RecordedEvents() }
        return recorded
    }

    private mutating func observe(_ sse: ServerSentEvent, at offset: Duration) {
        let view = deltaTexts.arm(longStrings, for: sse)
        guard let event = try? ResponseStreamEvent(view ?? sse, longStrings: longStrings) else {
            // Not JSON (a `[DONE]` line, a comment-like event): kept as it came (a skimmed one, as it was cut).
            recorded.append(
                index: state.eventCount, offset: offset, type: sse.event ?? "", sequenceNumber: nil, data: sse.data,
                text: nil,
                cut: sse.repeats.isEmpty ? nil : sse.recordedCut(secrets: secrets))
            state.skip()
            return
        }
        let settled = deltaTexts.settle(event.kind, event: sse, longStrings: longStrings, secrets: secrets)
        recorded.append(
            index: state.eventCount, offset: offset, type: event.type, sequenceNumber: event.sequenceNumber,
            data: sse.data, text: event.carriedText, cut: settled.recordable)
        state.observe(event, at: offset)
        if !sawResponseEvent, event.type.hasPrefix("response.") || event.type == "error" { sawResponseEvent = true }
        longStrings.count(event)
    }
}
