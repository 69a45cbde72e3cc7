import NIOCore

/// The stages one event stream goes through, in order for each network read:
/// 1. **decode**: the read's bytes through `SSEDecoder` into server-sent events, each into a
///    `ResponseStreamEvent` (an event whose data is not JSON is kept for the record and skipped);
/// 2. **record**: the read's events (exact bytes, arrival offsets, carried text) handed to the observer's
///    recording in one call, before the consumer sees them, so they are recorded even if it stops there;
/// 3. **batch**: the events handed to the consumer, one at a time or the read's worth together;
/// 4. at the end, **end detection**: a stream that stopped before its terminal event is an error
///    (the server's in-stream error, or a truncated stream), else the exchange's outcome.
/// `StreamState` learns from every event on the way (time to first text, the final response).
struct StreamPipeline {
    let exchange: Exchange
    private(set) var state = StreamState()
    private var decoder = SSEDecoder()
    private var recorded = RecordedEvents()
    private var pending: [ResponseStreamEvent] = []
    private let longStrings = LongStrings()
    /// The deltas' texts, which the final events' long strings are matched against: with
    /// `RepeatedText.omitted` a repeat is not decoded, and with a recording its place goes to the inspector.
    private let repeatedText: RepeatedText
    private var deltaTexts = DeltaTexts()
    private let tracksRepeats: Bool
    /// Whether the exchange is recorded, and whether the consumer takes batches: asked once, not per event
    /// (an optional existential and a resilient enum are copied through their metadata on each look).
    private let records: Bool
    private let sinksBatches: Bool
    /// The API key as bytes, when there is a recording: a final event in which it occurs, or whose deltas
    /// hold it, goes to the recording whole, for the inspector to redact.
    private let secrets: ByteSearch.Needles
    /// When the read being decoded arrived (since the request was sent): every event of one read arrived
    /// with it. Read from the clock once a read, not once an event.
    private var arrival = Duration.zero
    /// Last: the standard library's stream continuations are of resilient size, and a field after one
    /// has its offset computed at run time, on every access.
    let sink: ResponsesClient.EventSink

    init(exchange: Exchange, sink: ResponsesClient.EventSink, repeatedText: RepeatedText = .decoded) {
        self.exchange = exchange
        self.sink = sink
        self.repeatedText = repeatedText
        records = exchange.recording != nil
        tracksRepeats = repeatedText == .omitted || records
        if case .batches = sink { sinksBatches = true } else { sinksBatches = false }
        longStrings.omitsRepeats = repeatedText == .omitted
        longStrings.keepsDeltaBytes = repeatedText != .omitted
        secrets = ByteSearch.Needles(records ? ByteSearch.secrets(exchange.secrets) : [])
    }

    var cancelled: ResponsesAPIError {
        ResponsesAPIError(code: .cancelled, message: "cancelled", requestID: exchange.requestID)
    }

    private mutating func takeDecoder() -> SSEDecoder {
        defer { decoder = SSEDecoder() }
        return decoder
    }

    /// One network read through every stage.
    mutating func read(_ chunk: ByteBuffer) throws {
        if records, recorded.isEmpty { recorded.removeAll(reservingBytes: chunk.readableBytes) }
        // The decoder is taken out while it calls back into `decode` (which mutates the rest of the
        // pipeline), and put back after: moved, not copied.
        arrival = exchange.elapsed
        var decoder = takeDecoder()
        defer { self.decoder = decoder }
        decoder.longLineHint = longStrings.finalLineHint
        // `ask` needs nothing of a repeated text: a final event's line is read in pieces, never held whole.
        if repeatedText == .omitted, longStrings.deltaTextBytes >= longStrings.threshold {
            decoder.skimCandidates = deltaTexts.skimCandidates(threshold: longStrings.threshold)
        }
        do {
            try chunk.withUnsafeReadableBytes { raw in try decoder.push(raw) { try decode($0) } }
        } catch {
            try? deliver()
            throw error
        }
        try deliver()
    }

    /// Stage 1 for one server-sent event; with `.events`, the consumer gets it at once.
    private mutating func decode(_ sse: ServerSentEvent) throws {
        let offset = arrival
        let omittedBefore = longStrings.omitted
        // A final event read in pieces (`RepeatSkimmer`) comes already cut of its repeats.
        let skimmed = !sse.repeats.isEmpty
        guard var event = parse(sse) else {
            // Not JSON: keep its bytes in the inspector, skip it in the stream.
            if records {
                recorded.append(
                    index: state.eventCount, offset: offset, type: sse.event ?? "", sequenceNumber: nil,
                    data: sse.data,
                    text: nil, cut: skimmed ? sse.recordedCut(secrets: secrets) : nil)
            }
            state.skip()
            exchange.client.logger.debug(
                "skipping an event whose data is not JSON", metadata: ["event": "\(sse.event ?? "")"])
            return
        }
        event.omitsRepeatedText = skimmed || longStrings.omitted > omittedBefore
        // A final event's texts that repeat the deltas', cut out: what an event that omits them holds (so
        // nothing keeps its 50 MB), and what the recording gets unless the API key is about.
        let settled =
            tracksRepeats
            ? deltaTexts.settle(event.kind, event: sse, longStrings: longStrings, secrets: secrets)
            : (cut: nil, recordable: nil)
        if event.omitsRepeatedText, let cut = settled.cut { event.data = cut.bytes }
        if records {
            recorded.append(
                index: state.eventCount, offset: offset, type: event.type, sequenceNumber: event.sequenceNumber,
                data: sse.data, text: event.carriedText, cut: settled.recordable)
        }
        state.observe(event, at: offset)
        longStrings.count(event)
        // (The event is copied into the batch, a few retains; `consume` is refused here by this compiler, and
        // making it in its place in the batch cost more, in copies of its `kind` read from there.)
        if sinksBatches {
            pending.append(event)
        } else if case .events(let continuation) = sink {
            if case .terminated = continuation.yield(event) { throw cancelled }
        }
    }

    /// The event `sse` carries; nil when its data is not JSON.
    private mutating func parse(_ sse: ServerSentEvent) -> ResponseStreamEvent? {
        if tracksRepeats, let view = deltaTexts.arm(longStrings, for: sse) {
            return try? ResponseStreamEvent(view, longStrings: longStrings)
        }
        return try? ResponseStreamEvent(sse, longStrings: longStrings)
    }

    /// Stages 2 and 3 after a read: the recording first, then the consumer's batch.
    private mutating func deliver() throws {
        if let recording = exchange.recording, !recorded.isEmpty {
            recording.didReceiveEvents(recorded)
            recorded.removeAll()
        }
        guard case .batches(let continuation) = sink, !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        if case .terminated = continuation.yield(batch) { throw cancelled }
    }

    /// Stage 4, when the body has ended: the last line, then how the stream ended.
    mutating func end() throws(ResponsesAPIError) -> ExchangeOutcome {
        arrival = exchange.elapsed
        var decoder = takeDecoder()
        do {
            try decoder.finish { try decode($0) }
            try deliver()
        } catch let error as ResponsesAPIError {
            throw error
        } catch {
            throw ResponsesAPIError(code: .decoding, message: "\(error)", requestID: exchange.requestID)
        }
        if Task.isCancelled { throw cancelled }
        if let unfinished = state.unfinishedError(requestID: exchange.requestID) { throw unfinished }
        return state.exchangeOutcome(duration: exchange.elapsed)
    }

    /// After a failure: what was decoded but not yet handed over still reaches the recording.
    mutating func flushRecording() {
        if let recording = exchange.recording, !recorded.isEmpty { recording.didReceiveEvents(recorded) }
        recorded.removeAll()
    }
}
