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
                let redactor = Redactor(secrets: request.secrets)
                var pending = Pending(redactor: redactor, request: request, recorder: recorder)
                // The row's own deadline: a flush at `rowDelay`, unless what arrives writes it first.
                var flushScheduled = true
                Task {
                    try? await Task.sleep(for: recorder.rowDelay)
                    continuation.yield(.flush)
                }
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
                                    logger.error("inspector: cannot write exchange \(pending.name): \(error)")
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
                        if outcome.responseID == nil { outcome.responseID = Self.storedResponseID(method: request.method, url: request.url) }
                        pending.outcome = outcome
                    }
                    // What arrived is written with what comes within the next 200 ms (or 1 MB of events, or
                    // the end), in one transaction: a short exchange costs two transactions, the row and the rest.
                    let due: Bool
                    switch operation {
                    case .flush, .finish: due = true
                    default: due = separate || pending.batch.byteCount >= Self.batchBytes
                    }
                    if due {
                        do {
                            try await pending.commit(store: store)
                        } catch {
                            logger.error("inspector: cannot write exchange \(pending.name): \(error)")
                        }
                        backlog.release(unwritten)
                        unwritten = 0
                    } else if !flushScheduled, pending.hasWork {
                        flushScheduled = true
                        Task {
                            try? await Task.sleep(for: Self.batchDelay)
                            continuation.yield(.flush)
                        }
                    }
                    if case .finish(let outcome) = operation {
                        if let id = pending.rowID, let change = LedgerChange.of(
                            method: request.method, url: request.url, requestBody: request.body, responseBody: answer,
                            outcome: outcome, now: request.startedAt)
                        {
                            do {
                                try await store.apply(change, exchangeID: id, request: request, provider: recorder.provider)
                            } catch {
                                logger.error("inspector: cannot write the ledger for exchange \(id): \(error)")
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

        /// What the writer holds that is not in the database yet.
        struct Pending {
            let redactor: Redactor
            let request: ExchangeRequest
            let recorder: ExchangeRecorder
            /// The exchange's row, once written.
            var rowID: Int64?
            var head: ExchangeResponseHead?
            var body: DatabaseValue?
            var batch = EventBatch()
            var outcome: ExchangeOutcome?
            var texts = SearchableText()

            init(redactor: Redactor, request: ExchangeRequest, recorder: ExchangeRecorder) {
                self.redactor = redactor
                self.request = request
                self.recorder = recorder
            }

            var hasWork: Bool { rowID == nil || head != nil || body != nil || !batch.isEmpty || outcome != nil }

            /// The exchange in a message: its id, or its request while it has none.
            var name: String { rowID.map(String.init) ?? "\(request.method) \(request.url)" }

            /// Writes everything pending in one transaction (the row first, while it is not written), and
            /// forgets it.
            mutating func commit(store: InspectorStore) async throws {
                guard hasWork else { return }
                let row = rowID == nil ? recorder.row(of: request, redactor: redactor) : nil
                let written = rowID
                let head = head.map { head in
                    (
                        status: head.status, headers: ExchangeRecorder.encode(headers: redactor.redact(headers: head.headers)),
                        ttfb: head.timeToFirstByte.milliseconds,
                        streamed: head.headers.headerValue("content-type")?.lowercased().contains("text/event-stream") ?? false,
                        requestID: head.headers.headerValue("x-request-id")
                    )
                }
                let body = body
                let handoff = EventBatch.Handoff(batch.pack(redactor: redactor))
                // Back into the batch once the write is over, whether or not it succeeded.
                defer { if var packed = handoff.take() { batch.recycle(&packed) } }
                let finish = outcome.map { outcome in
                    var texts = texts
                    if let message = outcome.error?.message { texts.events += message + "\n" }
                    return (
                        outcome: outcome, error: outcome.error.map { redactor.redact(Recording.encode($0)) },
                        output: redactor.redact(texts.output), events: redactor.redact(texts.events),
                        cost: PriceTable.shipped.cost(model: outcome.model, usage: outcome.usage)
                    )
                }
                self.head = nil
                self.body = nil
                self.outcome = nil
                rowID = try await store.writer.write { db -> Int64 in
                    let id = try written ?? ExchangeRecorder.insertRow(row ?? [], db: db)
                    if let head {
                        try db.execute(
                            sql: """
                                UPDATE exchange SET status = ?, response_headers = ?, ttfb_ms = ?, streamed = ?,
                                                    request_id = ? WHERE id = ?
                                """,
                            arguments: [head.status, head.headers, head.ttfb, head.streamed, head.requestID, id])
                    }
                    if let body {
                        try db.execute(sql: "UPDATE exchange SET response_body = ? WHERE id = ?", arguments: [body, id])
                    }
                    let packed = handoff.batch
                    if let packed {
                        try EventBatch.insert(packed, exchange: id, db: db)
                        // With the outcome, the count goes in its one UPDATE below.
                        if finish == nil {
                            try db.execute(
                                sql: "UPDATE exchange SET event_count = event_count + ? WHERE id = ?",
                                arguments: [packed.count, id])
                        }
                    }
                    if let finish {
                        let outcome = finish.outcome
                        let output = finish.output
                        let events = finish.events
                        // One UPDATE: each rewrites the whole row, and with its texts (up to a megabyte each)
                        // a second one wrote them all again.
                        try db.execute(
                            sql: """
                                UPDATE exchange SET output_text = ?, event_text = ?, cost_usd = ?,
                                    event_count = event_count + ?, state = ?, error = ?,
                                    request_id = COALESCE(request_id, ?), ttft_ms = ?, duration_ms = ?, response_id = ?,
                                    model = COALESCE(?, model), response_status = ?, input_tokens = ?, cached_tokens = ?,
                                    output_tokens = ?, reasoning_tokens = ?, total_tokens = ?
                                WHERE id = ?
                                """,
                            arguments: [
                                output.isEmpty ? nil : output, events.isEmpty ? nil : events, finish.cost,
                                packed?.count ?? 0, outcome.state.rawValue, finish.error, outcome.error?.requestID,
                                outcome.timeToFirstText?.milliseconds, outcome.duration.milliseconds,
                                outcome.responseID, outcome.model, outcome.responseStatus, outcome.usage?.inputTokens,
                                outcome.usage?.cachedInputTokens, outcome.usage?.outputTokens,
                                outcome.usage?.reasoningTokens, outcome.usage?.totalTokens, id,
                            ])
                        try db.execute(
                            sql: """
                                INSERT INTO exchange_fts (rowid, input_text, output_text, event_text)
                                SELECT id, COALESCE(input_text, ''), ?, ? FROM exchange WHERE id = ?
                                """,
                            arguments: [output, events, id])
                    }
                    return id
                }
            }
        }

        /// The id in `GET …/responses/ID` (and its query), nil for any other request.
        static func storedResponseID(method: String, url: String) -> String? {
            guard method == "GET", let path = url.split(separator: "?").first, let range = path.range(of: "/responses/") else { return nil }
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
