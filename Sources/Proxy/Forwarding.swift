import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ResponsesAPI
import Synchronization

/// One upstream body on its way to the client: each chunk written as soon as it arrives (the write waits
/// for the client, and the next read waits for the write: backpressure both ways), and seen on the side:
/// an event stream decoded beside the forwarding by a `StreamTap` whose events go to the recording, any
/// other body kept for it up to the limit. Ends with the exchange's outcome: completed (or what the events
/// said), failed when the upstream broke off, cancelled when the client left, which also ends the upstream
/// request.
final class Forwarding: Sendable {
    let upstream: HTTPClientResponse
    let recording: (any ExchangeRecording)?
    let start: ContinuousClock.Instant
    /// The limits: a body kept whole for the recording (`keptResponseBytes`), a stream's backlog in memory
    /// and where and how much of it waits on disk (`recordingBacklog`, `spoolDirectory`, `spoolLimit`).
    let configuration: ProxyConfiguration
    /// Where a recording that outlives its stream is kept track of; nil waits for it before the body ends.
    let recordings: RecordingTasks?
    let requestID: String?
    /// The keys the exchange carries: the tap records a final event whole when one occurs in it.
    let secrets: [String]
    let logger: Logger
    private let started = Mutex(false)

    init(
        upstream: HTTPClientResponse, recording: (any ExchangeRecording)?, start: ContinuousClock.Instant,
        configuration: ProxyConfiguration, recordings: RecordingTasks?, requestID: String?, secrets: [String],
        logger: Logger
    ) {
        self.upstream = upstream
        self.recording = recording
        self.start = start
        self.configuration = configuration
        self.recordings = recordings
        self.requestID = requestID
        self.secrets = secrets
        self.logger = logger
    }

    /// A client that left before the answer's head could be written never gets its body run: the exchange
    /// is finished here, when the server drops the body (and with it the upstream's, which cancels it).
    deinit {
        guard !started.withLock({ $0 }), let recording else { return }
        let outcome = ExchangeOutcome(
            state: .cancelled,
            error: ResponsesAPIError(
                code: .cancelled, message: "the client disconnected before the answer began", requestID: requestID),
            duration: ContinuousClock.now - start)
        Task { await recording.didFinish(outcome) }
    }

    var isEventStream: Bool {
        upstream.headers.first(name: "content-type")?.lowercased().hasPrefix("text/event-stream") == true
    }

    func run(_ writer: inout any ResponseBodyWriter) async throws {
        started.withLock { $0 = true }
        if isEventStream, let recording {
            try await forwardStream(&writer, recording: recording)
        } else {
            try await forwardWhole(&writer)
        }
    }

    /// An event stream: each chunk to the client first, then to the recording beside it (`RecordingQueue`).
    /// The client gets the stream's end as soon as the upstream's; the exchange is finished when the
    /// recording has caught up, which `recordings` keeps track of.
    private func forwardStream(_ writer: inout any ResponseBodyWriter, recording: any ExchangeRecording) async throws {
        let queue = RecordingQueue(
            limit: configuration.recordingBacklog, spoolDirectory: configuration.spoolDirectory,
            spoolLimit: configuration.spoolLimit
        ) { [start] in
            ContinuousClock.now - start
        }
        let recorder = Task { [requestID, secrets, logger] in
            await Self.record(queue, into: recording, requestID: requestID, secrets: secrets)
            if let spoolFailure = queue.spoolFailure {
                logger.warning("the stream waited for its recording: \(spoolFailure)")
            }
            let spooled = queue.spooledTotal
            if spooled > 0 { logger.debug("recorded through the spool", metadata: ["spooled_bytes": "\(spooled)"]) }
        }
        var failure: (any Error)?
        var ending: ResponsesAPIError?
        do {
            for try await chunk in upstream.body {
                let offset = ContinuousClock.now - start
                do {
                    try await writer.write(chunk)
                } catch {
                    // Leaving the loop drops the upstream body's iterator, which cancels the upstream request.
                    failure = error
                    ending = ResponsesAPIError(
                        code: .cancelled, message: "the client disconnected", requestID: requestID)
                    await queue.enqueue(chunk, at: offset)
                    break
                }
                await queue.enqueue(chunk, at: offset)
            }
        } catch {
            failure = error
            ending = brokenOff(error)
        }
        queue.finish(ending, at: ContinuousClock.now - start)
        if failure == nil {
            do { try await writer.finish(nil) } catch { failure = error }
        }
        // The client has the whole stream: its connection is free for the next request while the recording
        // catches up (the server waits for it before it stops); past a few such recordings the connection
        // waits for this one, so memory and spool files stay bounded however many fast streams come.
        if let recordings, recordings.count < RecordingTasks.limit {
            recordings.track(recorder)
        } else {
            await recorder.value
        }
        if let failure {
            logger.debug("forwarding ended early", metadata: ["error": "\(failure)"])
            throw failure
        }
    }

    /// The recording side of a stream: decodes the chunks as they come and finishes the exchange.
    private static func record(
        _ queue: RecordingQueue, into recording: any ExchangeRecording, requestID: String?, secrets: [String]
    ) async {
        var tap = StreamTap(secrets: secrets)
        var lost: SpoolError?
        func decode(_ chunk: ByteBuffer, at offset: Duration) async {
            let events = chunk.withUnsafeReadableBytes { tap.push($0, at: offset) }
            if !events.isEmpty {
                recording.didReceiveEvents(events)
                await recording.waitForWriter()
            }
        }
        for await item in queue.items {
            switch item {
            case .chunk(let chunk, let offset):
                if lost == nil { await decode(chunk, at: offset) }
                queue.consumed(chunk.readableBytes)
            case .spooled(let position, let count, let offset):
                // A chunk that cannot be read back cannot be decoded, nor can what follows it (the events
                // would be spliced): the recording stops there and the exchange says so.
                await queue.waitForLull()
                do {
                    let chunk = try queue.readSpooled(at: position, count: count)
                    if lost == nil { await decode(chunk, at: offset) }
                } catch {
                    lost = lost ?? error
                }
            case .end(let error, let offset):
                let events = tap.finish(at: offset)
                if !events.isEmpty { recording.didReceiveEvents(events) }
                var ending = error
                if ending == nil, let lost {
                    ending = ResponsesAPIError(
                        code: .protocolViolation,
                        message: "the client got the whole stream, but its recording is not whole: \(lost)",
                        requestID: requestID)
                }
                await recording.didFinish(tap.outcome(duration: offset, error: ending, requestID: requestID))
            }
        }
    }

    /// Any other body: forwarded chunk by chunk, kept for the recording up to the limit.
    private func forwardWhole(_ writer: inout any ResponseBodyWriter) async throws {
        let limit = configuration.keptResponseBytes
        var kept: [UInt8] = []
        var total = 0
        var failure: (any Error)?
        var ending: ResponsesAPIError?
        do {
            for try await chunk in upstream.body {
                total += chunk.readableBytes
                if recording != nil, total <= limit { kept.append(contentsOf: chunk.readableBytesView) }
                do {
                    try await writer.write(chunk)
                } catch {
                    failure = error
                    ending = ResponsesAPIError(
                        code: .cancelled, message: "the client disconnected", requestID: requestID)
                    break
                }
            }
        } catch {
            failure = error
            ending = brokenOff(error)
        }
        let duration = ContinuousClock.now - start
        if let recording {
            recording.didReceiveBody(
                total <= limit ? kept : Array("<\(total) bytes forwarded, not kept (over \(limit >> 20) MB)>".utf8))
            let outcome =
                ending.map { ExchangeOutcome(failure: $0, duration: duration) }
                ?? Self.outcome(
                    status: Int(upstream.status.code), body: total <= limit ? kept : [], duration: duration,
                    requestID: requestID)
            await recording.didFinish(outcome)
        }
        if let failure {
            logger.debug("forwarding ended early", metadata: ["error": "\(failure)"])
            throw failure
        }
        try await writer.finish(nil)
    }

    /// The error of an upstream that broke off mid-body.
    private func brokenOff(_ error: any Error) -> ResponsesAPIError {
        var failure = ResponsesAPIError(asyncHTTPClient: error)
        failure.requestID = requestID
        if failure.code != .cancelled { failure.message = "the upstream broke off: \(failure.message)" }
        return failure
    }

    /// A whole answer's outcome: an HTTP error with the API's message, or what a response object says.
    static func outcome(status: Int, body: [UInt8], duration: Duration, requestID: String?) -> ExchangeOutcome {
        guard (200..<300).contains(status) else {
            return ExchangeOutcome(
                state: .failed, error: .http(status: status, body: body, requestID: requestID), duration: duration)
        }
        guard let json = try? JSONValue.parse(body), json["object"]?.stringValue == "response" else {
            return ExchangeOutcome(state: .completed, duration: duration)
        }
        let response = ResponsesAPI.Response(json: json)
        return ExchangeOutcome(
            state: ExchangeOutcome.State(status: response.status), responseID: response.id.isEmpty ? nil : response.id,
            model: response.model,
            responseStatus: response.status?.rawValue, usage: response.usage, duration: duration)
    }
}
