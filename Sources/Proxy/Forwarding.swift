import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ResponsesAPI

/// One upstream body on its way to the client: each chunk written as soon as it arrives (the write waits
/// for the client, and the next read waits for the write: backpressure both ways), and seen on the side:
/// an event stream through a `StreamTap` whose events go to the recording, any other body kept for it up to
/// the limit. Ends with the exchange's outcome: completed (or what the events said), failed when the
/// upstream broke off, cancelled when the client left, which also ends the upstream request.
struct Forwarding: Sendable {
    let upstream: HTTPClientResponse
    let recording: (any ExchangeRecording)?
    let start: ContinuousClock.Instant
    let limit: Int
    let requestID: String?
    let logger: Logger

    var isEventStream: Bool {
        upstream.headers.first(name: "content-type")?.lowercased().hasPrefix("text/event-stream") == true
    }

    func run(_ writer: inout any ResponseBodyWriter) async throws {
        var tap = isEventStream ? StreamTap() : nil
        var kept: [UInt8] = []
        var total = 0
        var clientGone: (any Error)?
        var upstreamError: (any Error)?
        do {
            for try await chunk in upstream.body {
                total += chunk.readableBytes
                if tap != nil, let recording {
                    let offset = ContinuousClock.now - start
                    let events = chunk.withUnsafeReadableBytes { tap!.push($0, at: offset) }
                    if !events.isEmpty { recording.didReceiveEvents(events) }
                } else if recording != nil, total <= limit {
                    kept.append(contentsOf: chunk.readableBytesView)
                }
                do {
                    try await writer.write(chunk)
                } catch {
                    clientGone = error
                    break
                }
                if tap != nil { await recording?.waitForWriter() }
            }
        } catch {
            upstreamError = error
        }
        let duration = ContinuousClock.now - start
        if var finished = tap, let recording {
            let events = finished.finish(at: duration)
            if !events.isEmpty { recording.didReceiveEvents(events) }
            tap = finished
        }
        let outcome: ExchangeOutcome
        if clientGone != nil {
            // Leaving the loop dropped the upstream body's iterator, which cancels the upstream request.
            let error = ResponsesAPIError(code: .cancelled, message: "the client disconnected", requestID: requestID)
            outcome = tap?.outcome(duration: duration, error: error, requestID: requestID)
                ?? ExchangeOutcome(state: .cancelled, error: error, duration: duration)
        } else if let upstreamError {
            var error = AsyncHTTPClientTransport.classify(upstreamError)
            error.requestID = requestID
            if error.code != .cancelled { error.message = "the upstream broke off: \(error.message)" }
            outcome = tap?.outcome(duration: duration, error: error, requestID: requestID)
                ?? ExchangeOutcome(state: error.code == .cancelled ? .cancelled : .failed, error: error, duration: duration)
        } else if let tap {
            outcome = tap.outcome(duration: duration, requestID: requestID)
        } else {
            if recording != nil {
                recording?.didReceiveBody(total <= limit ? kept : Array("<\(total) bytes forwarded, not kept (over \(limit >> 20) MB)>".utf8))
            }
            outcome = Self.outcome(status: Int(upstream.status.code), body: total <= limit ? kept : [], duration: duration, requestID: requestID)
        }
        await recording?.didFinish(outcome)
        if let failure = clientGone ?? upstreamError {
            logger.debug("forwarding ended early", metadata: ["error": "\(failure)"])
            throw failure
        }
        try await writer.finish(nil)
    }

    /// A whole answer's outcome: an HTTP error with the API's message, or what a response object says.
    static func outcome(status: Int, body: [UInt8], duration: Duration, requestID: String?) -> ExchangeOutcome {
        guard (200..<300).contains(status) else {
            return ExchangeOutcome(state: .failed, error: .http(status: status, body: body, requestID: requestID), duration: duration)
        }
        guard let json = try? JSONValue.parse(body), json["object"]?.stringValue == "response" else {
            return ExchangeOutcome(state: .completed, duration: duration)
        }
        let response = ResponsesAPI.Response(json: json)
        let state: ExchangeOutcome.State = switch response.status {
        case .incomplete?: .incomplete
        case .failed?, .cancelled?: .failed
        default: .completed
        }
        return ExchangeOutcome(
            state: state, responseID: response.id.isEmpty ? nil : response.id, model: response.model,
            responseStatus: response.status?.rawValue, usage: response.usage, duration: duration)
    }
}
