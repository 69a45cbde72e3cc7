import Foundation
import Logging
import NIOCore

/// The Responses API: create a response streamed or not. Every exchange is reported to the observer,
/// whatever its outcome.
public struct ResponsesClient: Sendable {
    public let configuration: Configuration
    let transport: any HTTPTransport
    let observer: (any ExchangeObserver)?
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        configuration: Configuration, transport: any HTTPTransport, observer: (any ExchangeObserver)? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "openresponses.api")
    ) {
        self.configuration = configuration
        self.transport = transport
        self.observer = observer
        self.now = now
        self.logger = logger
    }

    /// Creates a response with `stream: true` and delivers its events as they arrive.
    ///
    /// The stream ends after the terminal event (`response.completed`, `.incomplete` or `.failed`, which the
    /// caller reads from the events). It throws `ResponsesAPIError` for an HTTP error, a network error, a
    /// body that ends before a terminal event, or an `error` event with no terminal event after it; events
    /// that arrived before the error have already been delivered. Ending the iteration (or cancelling the
    /// task that iterates) cancels the request, which is still recorded.
    public func stream(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext()
    ) -> AsyncThrowingStream<ResponseStreamEvent, any Error> {
        var request = request
        request.stream = true
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ResponseStreamEvent.self)
        let body = request.json.serialized()
        let task = Task {
            do {
                try await self.runStream(body: body, context: context, continuation: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Creates a response with `stream: false` and returns it.
    public func create(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Response {
        var request = request
        request.stream = false
        let (json, _) = try await sendJSON(
            method: "POST", path: "/responses", body: request.json.serialized(), context: context)
        return Response(json: json)
    }

    // MARK: - Streaming

    private func runStream(
        body: [UInt8], context: ExchangeContext,
        continuation: AsyncThrowingStream<ResponseStreamEvent, any Error>.Continuation
    ) async throws(ResponsesAPIError) {
        try configuration.validate()
        let exchange = await Exchange.begin(
            client: self, method: "POST", path: "/responses", body: body, accept: "text/event-stream", context: context)
        var tracker = StreamTracker()
        do {
            let response = try await exchange.send()
            guard (200..<300).contains(response.status) else {
                let errorBody = try await exchange.collect(response.body)
                throw ResponsesAPIError.http(status: response.status, body: errorBody, requestID: exchange.requestID)
            }
            let contentType = response.header("content-type") ?? ""
            guard contentType.lowercased().contains("text/event-stream") else {
                let other = try await exchange.collect(response.body)
                throw ResponsesAPIError(
                    code: .protocolViolation,
                    message: "expected an event stream, got '\(contentType)' (\(other.count) bytes)",
                    status: response.status, requestID: exchange.requestID)
            }
            var decoder = SSEDecoder()
            let handle: (ServerSentEvent) throws -> Void = { sse in
                let offset = exchange.elapsed
                let event: ResponseStreamEvent
                do {
                    event = try ResponseStreamEvent(sse)
                } catch {
                    // Not JSON: keep its bytes in the inspector, skip it in the stream.
                    exchange.recording?.didReceiveEvent(RecordedEvent(
                        index: tracker.eventCount, offset: offset, type: sse.event ?? "", sequenceNumber: nil,
                        data: sse.data))
                    tracker.eventCount += 1
                    exchange.client.logger.debug("skipping an event whose data is not JSON", metadata: ["event": "\(sse.event ?? "")"])
                    return
                }
                exchange.recording?.didReceiveEvent(RecordedEvent(
                    index: tracker.eventCount, offset: offset, type: event.type,
                    sequenceNumber: event.sequenceNumber, data: sse.data))
                tracker.observe(event, at: offset)
                if case .terminated = continuation.yield(event) {
                    throw ResponsesAPIError(code: .cancelled, message: "cancelled", requestID: exchange.requestID)
                }
            }
            for try await chunk in response.body {
                try chunk.withUnsafeReadableBytes { raw in try decoder.push(raw, emit: handle) }
            }
            try decoder.finish(emit: handle)
            guard tracker.final != nil else {
                if let streamError = tracker.streamError {
                    throw ResponsesAPIError(
                        code: .streamError, message: streamError.message, apiType: streamError.type,
                        apiCode: streamError.code, apiParam: streamError.param, requestID: exchange.requestID)
                }
                throw ResponsesAPIError(
                    code: .truncatedStream,
                    message: "the stream ended before the response finished (\(tracker.eventCount) events received)",
                    requestID: exchange.requestID)
            }
            await exchange.finish(tracker.outcome(duration: exchange.elapsed))
        } catch {
            let failure = exchange.attach(AsyncHTTPClientTransport.classify(error))
            await exchange.finish(tracker.outcome(duration: exchange.elapsed, error: failure))
            throw failure
        }
    }

    // MARK: - JSON requests

    /// Sends a request whose answer is JSON; returns the parsed body and the answer's headers.
    /// The exchange is recorded, and a non-2xx answer becomes an `.http` error built from its body.
    func sendJSON(
        method: String, path: String, body: [UInt8]?, context: ExchangeContext
    ) async throws(ResponsesAPIError) -> (JSONValue, [(String, String)]) {
        try configuration.validate()
        let exchange = await Exchange.begin(
            client: self, method: method, path: path, body: body, accept: "application/json", context: context)
        do {
            let response = try await exchange.send()
            let bytes = try await exchange.collect(response.body)
            guard (200..<300).contains(response.status) else {
                throw ResponsesAPIError.http(status: response.status, body: bytes, requestID: exchange.requestID)
            }
            let json: JSONValue
            do {
                json = try JSONValue.parse(bytes)
            } catch {
                throw ResponsesAPIError(
                    code: .decoding, message: "the answer to \(method) \(path) is not JSON", status: response.status,
                    requestID: exchange.requestID, underlying: error)
            }
            let answer = Response(json: json)
            let state: ExchangeOutcome.State =
                switch answer.status {
                case .failed?: .failed
                case .incomplete?: .incomplete
                default: .completed
                }
            await exchange.finish(ExchangeOutcome(
                state: state, responseID: json["id"]?.stringValue, model: answer.model,
                responseStatus: answer.status?.rawValue, usage: answer.usage, duration: exchange.elapsed))
            return (json, response.headers)
        } catch {
            let failure = exchange.attach(AsyncHTTPClientTransport.classify(error))
            await exchange.finish(ExchangeOutcome(
                state: failure.code == .cancelled ? .cancelled : .failed, error: failure, duration: exchange.elapsed))
            throw failure
        }
    }
}

/// What the client learns from the events of one stream.
struct StreamTracker {
    var eventCount = 0
    var timeToFirstText: Duration?
    var final: Response?
    var latest: Response?
    var streamError: StreamErrorPayload?

    mutating func observe(_ event: ResponseStreamEvent, at offset: Duration) {
        switch event.kind {
        case .outputTextDelta:
            if timeToFirstText == nil { timeToFirstText = offset }
        case .responseUpdated(let response):
            latest = response
        case .responseFinished(let response):
            final = response
            latest = response
        case .error(let payload):
            streamError = payload
        default:
            break
        }
        eventCount += 1
    }

    func outcome(duration: Duration, error: ResponsesAPIError? = nil) -> ExchangeOutcome {
        let response = final ?? latest
        let state: ExchangeOutcome.State
        if let error {
            state = error.code == .cancelled ? .cancelled : .failed
        } else {
            switch final?.status {
            case .incomplete?: state = .incomplete
            case .failed?, .cancelled?: state = .failed
            default: state = .completed
            }
        }
        var failure = error
        if failure == nil, let final, final.status == .failed {
            failure = ResponsesAPIError(
                code: .streamError, message: final.error?.message ?? streamError?.message ?? "the response failed",
                apiType: streamError?.type, apiCode: final.error?.code ?? streamError?.code)
        }
        return ExchangeOutcome(
            state: state, error: failure, responseID: response.map(\.id).flatMap { $0.isEmpty ? nil : $0 },
            model: response?.model, responseStatus: final?.status?.rawValue, usage: final?.usage,
            timeToFirstText: timeToFirstText, duration: duration)
    }
}
