import Foundation
import Logging
import NIOCore

/// The Responses API client: responses (streamed or not, retrieved, resumed, cancelled, deleted,
/// counted, compacted, their input items) and conversations. Every HTTP exchange — each retry too — is
/// reported to the observer, whatever its outcome.
public struct ResponsesClient: Sendable {
    public let configuration: Configuration
    let transport: any HTTPTransport
    let observer: (any ExchangeObserver)?
    let now: @Sendable () -> Date
    let sleep: @Sendable (Duration) async throws -> Void
    let random: @Sendable () -> Double
    let logger: Logger

    /// - Parameters:
    ///   - now: the wall clock, for exchange timestamps and HTTP-date `retry-after` values.
    ///   - sleep: how the client waits between retries (tests pass one that records the waits).
    ///   - random: a number in 0...1 for the backoff jitter.
    public init(
        configuration: Configuration, transport: any HTTPTransport, observer: (any ExchangeObserver)? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        logger: Logger = Logger(label: "openresponses.api")
    ) {
        self.configuration = configuration
        self.transport = transport
        self.observer = observer
        self.now = now
        self.sleep = sleep
        self.random = random
        self.logger = logger
    }

    // MARK: - Create

    /// Creates a response with `stream: true` and delivers its events as they arrive.
    ///
    /// The stream ends after the terminal event (`response.completed`, `.incomplete` or `.failed`, which the
    /// caller reads from the events; a `data: [DONE]` after it is delivered as `.done`). It throws
    /// `ResponsesAPIError` for an HTTP error (after the retries the policy allows), a network error, a body
    /// that ends before a terminal event (`.truncatedStream`), or an `error` event with no terminal event
    /// after it (`.streamError`); events that arrived before the error have already been delivered, and
    /// nothing is retried once a byte of the stream has been used. Ending the iteration (or cancelling the
    /// task that iterates) cancels the request, which is still recorded. `onHead` sees the answer's head.
    public func stream(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext(),
        onHead: (@Sendable (ResponseMetadata) -> Void)? = nil
    ) -> AsyncThrowingStream<ResponseStreamEvent, any Error> {
        var request = request
        request.stream = true
        return eventStream(
            method: "POST", path: "/responses", body: request.json.serialized(), context: context, onHead: onHead)
    }

    /// Creates a response with `stream: false` and returns it.
    public func create(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Response {
        try await createWithMetadata(request, context: context).response
    }

    /// Creates a response with `stream: false`; returns it with the answer's head (rate limits are sent
    /// on this call only).
    public func createWithMetadata(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> (response: Response, metadata: ResponseMetadata) {
        var request = request
        request.stream = false
        let (json, metadata) = try await send(
            method: "POST", path: "/responses", body: request.json.serialized(), context: context)
        return (Response(json: json), metadata)
    }

    // MARK: - Event streams

    /// Any request whose answer is an event stream (create, resume, or a replayed exchange): see `stream`.
    public func eventStream(
        method: String, path: String, body: [UInt8]?, context: ExchangeContext = ExchangeContext(),
        onHead: (@Sendable (ResponseMetadata) -> Void)? = nil
    ) -> AsyncThrowingStream<ResponseStreamEvent, any Error> {
        startStream(method: method, path: path, body: body, context: context, onHead: onHead, sink: EventSink.events)
    }

    /// `stream`, delivering the events of each network read together: one hand-off per chunk instead of
    /// one per event, for consumers of large streams (the console). Same semantics otherwise.
    /// With `repeatedText: .omitted`, the final events' long texts that repeat the deltas are not decoded
    /// (see `RepeatedText`): for a consumer that shows the deltas and needs nothing else of that text.
    public func streamBatches(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext(),
        repeatedText: RepeatedText = .decoded, onHead: (@Sendable (ResponseMetadata) -> Void)? = nil
    ) -> AsyncThrowingStream<[ResponseStreamEvent], any Error> {
        var request = request
        request.stream = true
        return startStream(
            method: "POST", path: "/responses", body: request.json.serialized(), context: context, onHead: onHead,
            repeatedText: repeatedText, sink: EventSink.batches)
    }

    /// `eventStream`, delivering the events of each network read together (see `streamBatches`).
    public func eventBatches(
        method: String, path: String, body: [UInt8]?, context: ExchangeContext = ExchangeContext(),
        repeatedText: RepeatedText = .decoded
    ) -> AsyncThrowingStream<[ResponseStreamEvent], any Error> {
        startStream(
            method: method, path: path, body: body, context: context, onHead: nil, repeatedText: repeatedText,
            sink: EventSink.batches)
    }

    /// Runs a stream's producer in a task feeding a new `AsyncThrowingStream`; ending the iteration cancels it.
    private func startStream<Element: Sendable>(
        method: String, path: String, body: [UInt8]?, context: ExchangeContext,
        onHead: (@Sendable (ResponseMetadata) -> Void)?, repeatedText: RepeatedText = .decoded,
        sink: (AsyncThrowingStream<Element, any Error>.Continuation) -> EventSink
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let eventSink = sink(continuation)
        let task = Task {
            do {
                try await self.runStream(
                    method: method, path: path, body: body, context: context, onHead: onHead,
                    repeatedText: repeatedText,
                    sink: eventSink)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Where a running stream's events go: one at a time, or a chunk's worth at a time.
    enum EventSink {
        case events(AsyncThrowingStream<ResponseStreamEvent, any Error>.Continuation)
        case batches(AsyncThrowingStream<[ResponseStreamEvent], any Error>.Continuation)
    }

    /// Opens the stream and runs each network read through the `StreamPipeline`; the exchange is finished
    /// with its outcome on every path.
    private func runStream(
        method: String, path: String, body: [UInt8]?, context: ExchangeContext,
        onHead: (@Sendable (ResponseMetadata) -> Void)?, repeatedText: RepeatedText, sink: EventSink
    ) async throws(ResponsesAPIError) {
        let (exchange, response) = try await open(
            method: method, path: path, body: body, accept: "text/event-stream", context: context)
        onHead?(ResponseMetadata(status: response.status, headers: response.headers))
        var pipeline = StreamPipeline(exchange: exchange, sink: sink, repeatedText: repeatedText)
        do {
            let contentType = response.header("content-type") ?? ""
            guard contentType.lowercased().contains("text/event-stream") else {
                let other = try await exchange.collect(response.body)
                throw ResponsesAPIError(
                    code: .protocolViolation,
                    message: "expected an event stream, got '\(contentType)' (\(other.count) bytes)",
                    status: response.status, requestID: exchange.requestID)
            }
            for try await chunk in response.body {
                try pipeline.read(chunk)
                await exchange.recording?.waitForWriter()
            }
            await exchange.finish(try pipeline.end())
        } catch {
            pipeline.flushRecording()
            var failure = exchange.attach(ResponsesAPIError(wrapping: error))
            if failure.code == .network || failure.code == .timeout, pipeline.state.eventCount > 0 {
                failure.message += " after \(pipeline.state.eventCount) events"
            }
            await exchange.finish(pipeline.state.exchangeOutcome(duration: exchange.elapsed, error: failure))
            throw failure
        }
    }

    // MARK: - JSON requests

    /// Sends a request whose answer is JSON; returns the parsed body and the answer's head. The exchange
    /// is recorded; failed attempts are retried as the configuration's policy says; a non-2xx answer
    /// becomes an `.http` error built from its body (read once).
    public func send(
        method: String, path: String, body: [UInt8]? = nil, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> (JSONValue, ResponseMetadata) {
        try await send(method: method, path: path, requestBody: body.map(RequestBody.json), context: context)
    }

    /// `send` with a body that may be streamed from a file (uploads).
    public func send(
        method: String, path: String, requestBody body: RequestBody?, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> (JSONValue, ResponseMetadata) {
        let (exchange, response) = try await open(
            method: method, path: path, body: body, accept: "application/json", context: context)
        do {
            let bytes = try await exchange.collect(response.body)
            let json: JSONValue
            do {
                json = try JSONValue.parse(bytes)
            } catch {
                throw ResponsesAPIError(
                    code: .decoding, message: "the answer to \(method) \(path) is not JSON (\(error))",
                    status: response.status, requestID: exchange.requestID, underlying: error)
            }
            let answer = Response(json: json)
            let isResponse = json["object"]?.stringValue == "response"
            await exchange.finish(
                ExchangeOutcome(
                    state: ExchangeOutcome.State(status: isResponse ? answer.status : nil),
                    responseID: isResponse ? json["id"]?.stringValue : nil,
                    model: isResponse ? answer.model : nil, responseStatus: isResponse ? answer.status?.rawValue : nil,
                    usage: isResponse ? answer.usage : nil, duration: exchange.elapsed))
            return (json, ResponseMetadata(status: response.status, headers: response.headers))
        } catch {
            let failure = exchange.attach(ResponsesAPIError(wrapping: error))
            await exchange.finish(
                ExchangeOutcome(failure: failure, duration: exchange.elapsed))
            throw failure
        }
    }

    // MARK: - Sending with retries

    /// Sends the request until an attempt answers 2xx, and returns that exchange with its head (the body
    /// still to read). Every attempt is its own recorded exchange; failed ones are finished here. Throws
    /// the last attempt's error when the policy gives up.
    func open(
        method: String, path: String, body: [UInt8]?, accept: String, context: ExchangeContext
    ) async throws(ResponsesAPIError) -> (Exchange, TransportResponse) {
        try await open(method: method, path: path, body: body.map(RequestBody.json), accept: accept, context: context)
    }

    func open(
        method: String, path: String, body: RequestBody?, accept: String, context: ExchangeContext
    ) async throws(ResponsesAPIError) -> (Exchange, TransportResponse) {
        try configuration.validate()
        let policy = configuration.retryPolicy
        var retry = 0
        while true {
            let exchange = await Exchange.begin(
                client: self, method: method, path: path, body: body, accept: accept, context: context, attempt: retry)
            var failure: ResponsesAPIError
            var decision: RetryPolicy.Decision
            do {
                let response = try await exchange.send()
                if (200..<300).contains(response.status) { return (exchange, response) }
                let errorBody = try await exchange.collect(response.body)
                failure = ResponsesAPIError.http(
                    status: response.status, body: errorBody, requestID: exchange.requestID)
                decision = policy.decision(
                    status: response.status, headers: response.headers, retry: retry, now: now(), random: random())
            } catch {
                failure = exchange.attach(error)
                switch failure.code {
                case .network, .timeout:
                    // Only errors before the head reach here: nothing of a body was used.
                    decision = policy.decisionAfterConnectionError(retry: retry, random: random())
                default:
                    decision = .giveUp(reason: nil)
                }
            }
            if case .giveUp(let reason?) = decision { failure.message += " (\(reason))" }
            if case .retry(let delay) = decision { failure.retryDelay = delay }
            await exchange.finish(
                ExchangeOutcome(failure: failure, duration: exchange.elapsed))
            guard case .retry(let delay) = decision else { throw failure }
            logger.info(
                "retrying",
                metadata: [
                    "method": "\(method)", "path": "\(path)", "after_ms": "\(Int(delay.milliseconds))",
                    "error": "\(failure)",
                ])
            do {
                try await sleep(delay)
            } catch {
                throw ResponsesAPIError(
                    code: .cancelled, message: "cancelled while waiting to retry", underlying: error)
            }
            if Task.isCancelled {
                throw ResponsesAPIError(code: .cancelled, message: "cancelled while waiting to retry")
            }
            retry += 1
        }
    }
}
