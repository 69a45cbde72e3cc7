import Foundation
import ResponsesAPI
import Synchronization
import TestSupport

/// Collects a stream's events and its error (if it threw).
func collect(
    _ stream: AsyncThrowingStream<ResponseStreamEvent, any Error>
) async -> (events: [ResponseStreamEvent], error: ResponsesAPIError?) {
    var events: [ResponseStreamEvent] = []
    do {
        for try await event in stream { events.append(event) }
        return (events, nil)
    } catch let error as ResponsesAPIError {
        return (events, error)
    } catch {
        return (events, ResponsesAPIError(code: .network, message: "unexpected \(error)"))
    }
}

/// `collect`, opening `gate` once the deltas' text is `text` (the server then drops the connection).
func collect(
    _ stream: AsyncThrowingStream<ResponseStreamEvent, any Error>, opening gate: Gate, atText text: String
) async -> (events: [ResponseStreamEvent], error: ResponsesAPIError?) {
    var events: [ResponseStreamEvent] = []
    do {
        for try await event in stream {
            events.append(event)
            if events.deltaText == text { gate.open() }
        }
        return (events, nil)
    } catch {
        return (
            events, error as? ResponsesAPIError ?? ResponsesAPIError(code: .network, message: "unexpected \(error)")
        )
    }
}

/// An observer that keeps what it saw of each exchange, in start order.
final class CollectingObserver: ExchangeObserver {
    struct Seen: Sendable {
        var method: String
        var url: String
        var attempt: Int
        var status: Int?
        var events: Int
        var state: ExchangeOutcome.State?
        var error: ResponsesAPIError?
    }

    private let storage = Mutex<[Seen]>([])
    var exchanges: [Seen] { storage.withLock { $0 } }

    func exchangeWillStart(_ request: ExchangeRequest) async -> any ExchangeRecording {
        let index = storage.withLock { seen in
            seen.append(Seen(method: request.method, url: request.url, attempt: request.attempt, events: 0))
            return seen.count - 1
        }
        return Recording(observer: self, index: index)
    }

    func update(_ index: Int, _ change: (inout Seen) -> Void) {
        storage.withLock { change(&$0[index]) }
    }

    struct Recording: ExchangeRecording {
        let observer: CollectingObserver
        let index: Int
        func didReceiveHead(_ head: ExchangeResponseHead) { observer.update(index) { $0.status = head.status } }
        func didReceiveEvents(_ events: RecordedEvents) { observer.update(index) { $0.events += events.count } }
        func didReceiveBody(_ body: [UInt8]) {}
        func didFinish(_ outcome: ExchangeOutcome) async {
            observer.update(index) {
                $0.state = outcome.state
                $0.error = outcome.error
            }
        }
    }
}
