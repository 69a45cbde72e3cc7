import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `StreamState`: the one place a stream's final or partial response, last sequence number and ending are
/// worked out, for the inspector's `ExchangeOutcome` and for the consumer's `StreamOutcome` alike.
@Suite("Stream state and its two outcomes")
struct StreamStateTests {
    static let created =
        #"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","model":"m"}}"#
    static let completed =
        #"{"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","object":"response","status":"completed","model":"m","usage":{"input_tokens":3,"output_tokens":2,"total_tokens":5}}}"#
    static let incomplete =
        #"{"type":"response.incomplete","sequence_number":9,"response":{"id":"resp_1","object":"response","status":"incomplete","model":"m"}}"#
    static let failed =
        #"{"type":"response.failed","sequence_number":9,"response":{"id":"resp_1","object":"response","status":"failed","model":"m","error":{"code":"server_error","message":"boom"}}}"#
    static let errorEvent =
        #"{"type":"error","code":"rate_limit_exceeded","message":"Slow down","param":null,"sequence_number":3}"#

    static func delta(_ sequence: Int) -> String {
        #"{"type":"response.output_text.delta","sequence_number":\#(sequence),"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}"#
    }

    static func events(_ lines: [String]) throws -> [ResponseStreamEvent] {
        try lines.map { ResponseStreamEvent(json: try JSONValue.parse(Array($0.utf8))) }
    }

    static func state(_ lines: [String], at offset: Duration? = nil) throws -> StreamState {
        var state = StreamState()
        for event in try events(lines) { state.observe(event, at: offset) }
        return state
    }

    @Test func streamEndingWithoutTerminalEvent() throws {
        let state = try Self.state([Self.created, Self.delta(1), Self.delta(2)], at: .milliseconds(20))
        #expect(state.final == nil)
        #expect(state.partial?.id == "resp_1")
        #expect(state.lastSequenceNumber == 2)
        #expect(state.eventCount == 3)
        #expect(state.timeToFirstText == .milliseconds(20))

        let unfinished = try #require(state.unfinishedError(requestID: "req_1"))
        #expect(unfinished.code == .truncatedStream)
        #expect(
            unfinished.message
                == "the stream ended before the response finished (3 events received, the last with sequence_number 2)")
        #expect(unfinished.requestID == "req_1")

        let recorded = state.exchangeOutcome(duration: .seconds(1), error: unfinished)
        #expect(recorded.state == .failed)
        #expect(recorded.error?.code == .truncatedStream)
        #expect(recorded.responseID == "resp_1")
        #expect(recorded.responseStatus == nil)
        #expect(recorded.timeToFirstText == .milliseconds(20))

        // The client threw the error to its consumer, which keeps the partial response and where it stopped.
        let consumed = state.outcome(ending: unfinished)
        #expect(consumed.error?.code == .truncatedStream)
        #expect(consumed.response == nil)
        #expect(consumed.partialResponse?.id == "resp_1")
        #expect(consumed.lastSequenceNumber == 2)
        // An iteration that simply ended without the terminal event: the task was cancelled.
        #expect(state.outcome(ending: nil).error?.code == .cancelled)
        #expect(state.outcome(ending: nil).state == .cancelled)

        // After an `error` event, the server's error instead.
        let errored = try Self.state([Self.created, Self.delta(1), Self.errorEvent])
        let streamError = try #require(errored.unfinishedError())
        #expect(streamError.code == .streamError)
        #expect(streamError.message == "Slow down")
        #expect(streamError.apiCode == "rate_limit_exceeded")
        #expect(errored.lastSequenceNumber == 3)
        // A terminal event: nothing unfinished.
        #expect(try Self.state([Self.created, Self.completed]).unfinishedError() == nil)
    }

    @Test func streamFailingMidwayKeepsItsPartialResponse() throws {
        let state = try Self.state([Self.created, Self.delta(1), Self.delta(2)])
        let network = ResponsesAPIError(code: .network, message: "the server closed the connection")
        let consumed = state.outcome(ending: network)
        #expect(consumed.error?.code == .network)
        #expect(consumed.error?.message == "the server closed the connection")
        #expect(consumed.response == nil)
        #expect(consumed.partialResponse?.id == "resp_1")
        #expect(consumed.lastSequenceNumber == 2)
        #expect(consumed.state == .failed)

        let recorded = state.exchangeOutcome(duration: .seconds(1), error: network)
        #expect(recorded.state == .failed)
        #expect(recorded.responseID == "resp_1")

        // Errors that are not the client's own are wrapped: a cancellation stays a cancellation.
        #expect(state.outcome(ending: CancellationError()).error?.code == .cancelled)
        #expect(state.outcome(ending: CancellationError()).state == .cancelled)
        #expect(state.outcome(ending: CocoaError(.fileWriteUnknown)).error?.code == .network)
    }

    /// One way a stream ends: `exchangeError` is what the client recorded the exchange with, `consumerEnding`
    /// what the consumer's iteration threw (a cancelled consumer's iteration just ends).
    struct Ending: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [String]
        var exchangeError: ResponsesAPIError.Code?
        var consumerEnding: ResponsesAPIError.Code?
        var testDescription: String { name }
    }

    static let endings = [
        Ending(name: "completed", lines: [created, delta(1), completed]),
        Ending(name: "incomplete", lines: [created, delta(1), incomplete]),
        Ending(name: "failed response", lines: [created, delta(1), failed]),
        Ending(name: "network", lines: [created, delta(1)], exchangeError: .network, consumerEnding: .network),
        Ending(
            name: "truncated", lines: [created, delta(1)], exchangeError: .truncatedStream,
            consumerEnding: .truncatedStream),
        Ending(name: "cancelled", lines: [created, delta(1)], exchangeError: .cancelled),
    ]

    /// Each way a stream ends, as the client records it and as its consumer sees it: the same response, the
    /// same state.
    @Test(arguments: StreamStateTests.endings)
    func recordedAndConsumedOutcomesAgree(ending: Ending) throws {
        let state = try Self.state(ending.lines)
        let recorded = state.exchangeOutcome(
            duration: .seconds(1), error: ending.exchangeError.map { ResponsesAPIError(code: $0, message: ending.name) }
        )
        let consumed = state.outcome(
            ending: ending.consumerEnding.map { ResponsesAPIError(code: $0, message: ending.name) })
        #expect(recorded.state == consumed.state)
        #expect(recorded.responseID == (consumed.response ?? consumed.partialResponse)?.id)
        #expect(recorded.responseStatus == consumed.response?.status?.rawValue)
        #expect(recorded.usage == consumed.response?.usage)
        // A failed response is recorded with its error; its consumer reads the response's status.
        if consumed.response?.status != .failed {
            #expect(recorded.error?.code == consumed.error?.code)
        }
    }

    @Test func failedResponseIsRecordedWithItsError() throws {
        let recorded = try Self.state([Self.created, Self.failed]).exchangeOutcome(duration: .seconds(1))
        #expect(recorded.state == .failed)
        #expect(recorded.error?.code == .streamError)
        #expect(recorded.error?.message == "boom")
        #expect(recorded.error?.apiCode == "server_error")
        #expect(recorded.responseStatus == "failed")
    }

    @Test func batchReadInPlaceLearnsWhatEventByEventDoes() throws {
        let lines = [Self.created, Self.delta(1), Self.delta(2), Self.completed]
        var batched = StreamState()
        try Self.events(lines).withUnsafeBufferPointer { batched.observe($0) }
        let single = try Self.state(lines)
        #expect(batched.final?.id == single.final?.id)
        #expect(batched.final?.status == .completed)
        #expect(batched.partial?.id == single.partial?.id)
        #expect(batched.lastSequenceNumber == 9)
        #expect(batched.eventCount == 4)
    }

    /// Over the wire: the exchange the observer recorded and the outcome of the batches' consumer agree.
    @Test(arguments: [7, nil] as [Int?])
    func clientRecordingAndConsumerAgree(frameCount: Int?) async throws {
        let frames = Fixtures.frames("stream-hello.sse")
        let server = try await LoopbackServer.start { _ in .sse(Array(frames.prefix(frameCount ?? frames.count))) }
        let observer = CollectingObserver()
        let consumed = try await withClient(
            baseURL: server.baseURL, apiKey: "sk-test-0123456789abcdef", observer: observer, readTimeout: .seconds(600)
        ) { client in
            var state = StreamState()
            var ending: (any Error)?
            do {
                for try await batch in client.streamBatches(CreateResponseRequest(model: "m", input: "hi")) {
                    batch.withUnsafeBufferPointer { state.observe($0) }
                }
            } catch {
                ending = error
            }
            return state.outcome(ending: ending)
        }
        await server.stop()
        let recorded = try #require(observer.exchanges.last)
        #expect(recorded.state == consumed.state)
        #expect(recorded.error?.code == consumed.error?.code)
        #expect(recorded.error?.message == consumed.error?.message)
        #expect((consumed.response ?? consumed.partialResponse)?.id == "resp_hello1")
        if frameCount != nil {
            #expect(consumed.error?.code == .truncatedStream)
            #expect(consumed.response == nil)
            #expect(consumed.lastSequenceNumber == 5)
        } else {
            #expect(consumed.error == nil)
            #expect(consumed.state == .completed)
            #expect(consumed.lastSequenceNumber == 11)
        }
    }
}
