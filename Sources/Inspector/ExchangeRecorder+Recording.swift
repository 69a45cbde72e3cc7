import Foundation
import GRDB
import ResponsesAPI
import Synchronization

extension ExchangeRecorder {
    /// The recording of one exchange. Callbacks only hand their data to the exchange's writer task, which
    /// does all the work in order: it gathers what arrives (the head, events packed into a batch, a body,
    /// the outcome) and writes it in one transaction at 1 MB of events, 200 ms after the first unwritten
    /// item (so a killed process loses at most that much), or at the end. The row goes with the first such
    /// transaction, or alone the recorder's `rowDelay` after the start when nothing has come: a short
    /// exchange is one transaction, written after its answer, and the row's insert never competes with the
    /// request on its way (through the proxy it was a third of what a tiny answer's first byte took more
    /// than direct; a tiny `ask` two transactions became one).
    final class Recording: ExchangeRecording {
        enum Operation: Sendable {
            case head(ExchangeResponseHead)
            case events(RecordedEvents)
            /// Write what is pending now (sent by the writer's own timer).
            case flush
            case body([UInt8])
            case finish(ExchangeOutcome)

            var isFinish: Bool { if case .finish = self { true } else { false } }
        }

        static let batchBytes = 1 << 20
        static let batchDelay = Duration.milliseconds(200)
        /// Event bytes handed over and not yet stored, above which `waitForWriter` makes the stream wait.
        static let backlogLimit = 2 << 20

        private let operations: AsyncStream<Operation>.Continuation
        private let writer: Task<Void, Never>
        private let recorder: ExchangeRecorder
        private let backlog: Backlog

        init(request: ExchangeRequest, recorder: ExchangeRecorder) {
            self.recorder = recorder
            let (stream, continuation) = AsyncStream.makeStream(of: Operation.self)
            self.operations = continuation
            let logger = recorder.logger
            let backlog = Backlog(limit: Self.backlogLimit)
            self.backlog = backlog
            self.writer = Task.detached {
                // Whatever happens, nobody is left waiting for a writer that has stopped.
                defer { backlog.close() }
                // The store may still be opening; nothing of the exchange waits for it.
                guard case .success(let store) = await recorder.opening.value() else {
                    // Nothing can be stored (the opening failure was reported once, when it happened).
                    for await operation in stream {
                        if case .events(let events) = operation { backlog.release(events.byteCount) }
                        if case .finish = operation { continuation.finish() }
                    }
                    return
                }
                let redactor = Redactor(request: request)
                var pending = Pending(redactor: redactor, request: request, recorder: recorder)
                // The row's own deadline: a flush at `rowDelay`, unless what arrives writes it first (what
                // arrives meanwhile waits for it: a `rowDelay` above `batchDelay` delays it too).
                var flushScheduled = true
                let rowTimer = Task {
                    try? await Task.sleep(for: recorder.rowDelay)
                    continuation.yield(.flush)
                }
                defer { rowTimer.cancel() }
                // A small answer's exact bytes, for the ledger (the id of what a POST created).
                var answer: [UInt8]?
                // Bytes of the events appended to the batch since the last commit.
                var unwritten = 0
                // The read held an event with bytes of its own, now the batch: written at once.
                var separate = false
                for await operation in stream {
                    switch operation {
                    case .head(let head):
                        pending.head = head
                    case .events(let events):
                        separate = false
                        pending.texts.collect(events)
                        unwritten += events.byteCount
                        // An event with bytes of its own (a final event repeating a long answer) is a row of
                        // its own, written at once from those bytes: never copied into a batch.
                        for run in EventBatch.runs(of: events) {
                            var alone: RecordedEvents.Entry?
                            if case .separate(let entry) = run { alone = entry }
                            if alone != nil || pending.batch.holdsAlone {
                                do {
                                    try await pending.commit(store: store)
                                } catch {
                                    recorder.tell(
                                        recorder.writeFailed(error, store: store, what: "exchange \(pending.name)"))
                                }
                            }
                            if let alone {
                                pending.batch.appendAlone(alone)
                                separate = true
                            } else if case .shared(let range) = run {
                                pending.batch.append(events, range)
                            }
                        }
                    case .body(let body):
                        if body.count < 1 << 20 { answer = body }
                        pending.texts.collect(body: body)
                        pending.body = ExchangeRecorder.databaseValue(redactor.redact(body))
                    case .flush:
                        flushScheduled = false
                    case .finish(var outcome):
                        // A stream resumed from a stored response (`GET /responses/ID?stream=true...`) is that
                        // response's even when it broke off before saying so: linked to it by its id.
                        if outcome.responseID == nil {
                            outcome.responseID = Self.storedResponseID(method: request.method, url: request.url)
                        }
                        pending.outcome = outcome
                    }
                    // What arrived is written with what comes within the next 200 ms (or 1 MB of events, or
                    // the end), in one transaction: a short exchange is one, its row included.
                    let due: Bool
                    switch operation {
                    case .flush, .finish: due = true
                    default: due = separate || pending.batch.byteCount >= Self.batchBytes
                    }
                    if due {
                        // A failed write keeps the row, head, body and outcome for the next (the events it
                        // carried are lost); the end is tried twice more, a moment apart (another process's
                        // long write can outlast the busy timeout once), unless the store is read-only or its
                        // disk full. What is lost is told once (`tell`), in one line.
                        let attempts = operation.isFinish ? 3 : 1
                        for attempt in 1...attempts {
                            do {
                                try await pending.commit(store: store)
                                break
                            } catch {
                                let failure = recorder.writeFailed(
                                    error, store: store,
                                    what: "exchange \(pending.name) (attempt \(attempt) of \(attempts))")
                                if attempt == attempts || failure.isLasting {
                                    recorder.tell(failure)
                                    break
                                }
                                try? await Task.sleep(for: .milliseconds(100 * attempt))
                            }
                        }
                        backlog.release(unwritten)
                        unwritten = 0
                    }
                    // What is left (it arrived, or a failed write kept it) is written within the next 200 ms.
                    if !operation.isFinish, !flushScheduled, pending.hasWork {
                        flushScheduled = true
                        Task {
                            try? await Task.sleep(for: Self.batchDelay)
                            continuation.yield(.flush)
                        }
                    }
                    // A batch's result is recorded after the fact: what it created is the batch's, in the ledger
                    // as the batch and its files, not as objects of their own.
                    if case .finish(let outcome) = operation {
                        if request.context.batchID == nil,
                            let change = LedgerChange.of(
                                method: request.method, url: redactor.redact(url: request.url),
                                storeRequested: pending.storeRequested,
                                responseBody: answer,
                                outcome: outcome, now: request.startedAt)
                        {
                            guard let id = pending.rowID else {
                                logger.debug(
                                    "inspector: no ledger entry for \(pending.name): its exchange could not be written")
                                continuation.finish()
                                continue
                            }
                            do {
                                try await store.apply(
                                    change, exchangeID: id, request: request, provider: recorder.provider)
                            } catch {
                                recorder.tell(
                                    recorder.writeFailed(error, store: store, what: "the ledger for exchange \(id)"))
                            }
                        }
                        continuation.finish()
                    }
                }
            }
        }

        func didReceiveHead(_ head: ExchangeResponseHead) {
            operations.yield(.head(head))
        }

        func didReceiveEvents(_ events: RecordedEvents) {
            backlog.add(events.byteCount)
            operations.yield(.events(events))
        }

        func waitForWriter() async {
            await backlog.wait()
        }

        func didReceiveBody(_ body: [UInt8]) {
            operations.yield(.body(body))
        }

        func didFinish(_ outcome: ExchangeOutcome) async {
            operations.yield(.finish(outcome))
            await writer.value
            recorder.exchangeClosed()
        }

        /// The id in `GET …/responses/ID` (and its query), nil for any other request.
        static func storedResponseID(method: String, url: String) -> String? {
            guard method == "GET", let path = url.split(separator: "?").first, let range = path.range(of: "/responses/")
            else { return nil }
            let id = path[range.upperBound...]
            return id.hasPrefix("resp_") && !id.contains("/") ? String(id) : nil
        }

        static func encode(_ error: ResponsesAPIError) -> String {
            var object = JSONObject()
            object["code"] = .string(error.code.description)
            object["message"] = .string(error.message)
            if let status = error.status { object["status"] = .integer(status) }
            if let type = error.apiType { object["type"] = .string(type) }
            if let code = error.apiCode { object["api_code"] = .string(code) }
            if let param = error.apiParam { object["param"] = .string(param) }
            if let requestID = error.requestID { object["request_id"] = .string(requestID) }
            if let delay = error.retryDelay { object["retried_after_ms"] = .number(delay.milliseconds) }
            return JSONValue.object(object).compactString
        }
    }
}
