import ResponsesAPI

/// Sends one request and renders its answer as it arrives.
public struct TurnRunner: Sendable {
    let client: ResponsesClient

    public init(client: ResponsesClient) {
        self.client = client
    }

    /// Runs the request; `renderer` sees every event. Cancelling the calling task cancels the request.
    /// With `repeatedText: .omitted`, the final events' long texts that repeat the deltas read as "" (in
    /// the events and in the outcome's response; see `RepeatedText`).
    public func run<Renderer: TurnRendering>(
        _ request: CreateResponseRequest, context: ExchangeContext, repeatedText: RepeatedText = .decoded,
        renderer: inout Renderer
    ) async -> TurnOutcome {
        if !request.stream {
            do {
                let response = try await client.create(request, context: context)
                renderer.render(response: response)
                return TurnOutcome(response: response, text: renderer.text, error: nil, request: request)
            } catch {
                return TurnOutcome(response: nil, text: renderer.text, error: error, request: request)
            }
        }
        var outcome = await consume(
            client.streamBatches(request, context: context, repeatedText: repeatedText), renderer: &renderer)
        // A stored background response's stream that broke off is resumed from its last event, a few times:
        // the response goes on on the server, and each attempt is an exchange of its own with its id.
        var attempts = 0
        while attempts < Self.resumeAttempts, let (id, last) = Self.resumePoint(outcome, request: request) {
            attempts += 1
            var resumed = await consume(
                client.resumeBatches(id: id, startingAfter: last, context: context, repeatedText: repeatedText),
                renderer: &renderer)
            resumed.partialResponse = resumed.partialResponse ?? outcome.partialResponse ?? outcome.response
            resumed.lastSequenceNumber = resumed.lastSequenceNumber ?? last
            outcome = resumed
        }
        outcome.request = request
        return outcome
    }

    /// How many times a broken background stream is resumed before the turn fails.
    public static let resumeAttempts = 3

    /// The response id and last sequence number to resume a broken stream from: only a background response
    /// the server stores, only when the stream broke off (a network failure or a truncated stream).
    static func resumePoint(_ outcome: TurnOutcome, request: CreateResponseRequest) -> (id: String, last: Int)? {
        guard let error = outcome.error, [.network, .truncatedStream].contains(error.code),
            request.body["background"]?.boolValue == true, request.body["store"]?.boolValue != false,
            let id = (outcome.response ?? outcome.partialResponse)?.id, !id.isEmpty,
            let last = outcome.lastSequenceNumber
        else { return nil }
        return (id, last)
    }

    /// Sends a recorded request's exact body again (`inspect replay`) and renders its event stream.
    public func replay<Renderer: TurnRendering>(
        method: String, path: String, body: [UInt8], context: ExchangeContext, renderer: inout Renderer
    ) async -> TurnOutcome {
        await consume(
            client.eventBatches(method: method, path: path, body: body, context: context), renderer: &renderer)
    }

    /// Renders the batches of an event stream and says how it ended (what `StreamState` learned of it).
    func consume<Renderer: TurnRendering>(
        _ batches: AsyncThrowingStream<[ResponseStreamEvent], any Error>, renderer: inout Renderer
    ) async -> TurnOutcome {
        var state = StreamState()
        var ending: (any Error)?
        do {
            for try await batch in batches {
                // Each event read in place, not copied out of the batch (a copy retains and releases its
                // strings and data: four atomic pairs per delta, 250,000 deltas in a 50 MB answer).
                batch.withUnsafeBufferPointer { events in
                    renderer.render(batch: events)
                    state.observe(events)
                }
                renderer.flush()
            }
        } catch {
            ending = error
        }
        return TurnOutcome(state.outcome(ending: ending), text: renderer.text)
    }
}
