import Foundation
import GRDB
import ResponsesAPI

extension ExchangeRecorder.Recording {
    /// What the writer holds that is not in the database yet.
    struct Pending {
        let redactor: Redactor
        let request: ExchangeRequest
        let recorder: ExchangeRecorder
        /// The exchange's row, once written.
        var rowID: Int64?
        /// Whether the request asked the server to keep the response (`store` not false), read with the row.
        var storeRequested = true
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
        var name: String { rowID.map(String.init) ?? "\(request.method) \(redactor.redact(url: request.url))" }

        /// Writes everything pending in one transaction (the row first, while it is not written), and
        /// forgets it.
        mutating func commit(store: InspectorStore) async throws {
            guard hasWork else { return }
            let values = rowID == nil ? recorder.row(of: request, redactor: redactor) : nil
            if let values { storeRequested = values.storeRequested }
            let row = values
            let written = rowID
            let head = head.map { head in
                (
                    status: head.status,
                    headers: ExchangeRecorder.encode(headers: redactor.redact(headers: head.headers)),
                    ttfb: head.timeToFirstByte.milliseconds,
                    streamed: head.headers.headerValue("content-type")?.lowercased().contains("text/event-stream")
                        ?? false,
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
                    outcome: outcome,
                    error: outcome.error.map { redactor.redact(ExchangeRecorder.Recording.encode($0)) },
                    output: redactor.redact(texts.output), events: redactor.redact(texts.events),
                    cost: PriceTable.shipped.cost(
                        model: outcome.model, usage: outcome.usage, batch: request.context.batchID != nil),
                    // A batch's result has no time of its own (the Batch API gives none): null, not 0.
                    duration: request.context.batchID == nil ? outcome.duration.milliseconds : nil
                )
            }
            // Kept until the write is over: a failed one leaves them (and the row) for the next.
            let kept = (head: self.head, body: self.body, outcome: self.outcome)
            (self.head, self.body, self.outcome) = (nil, nil, nil)
            do {
                rowID = try await store.writer.write { db -> Int64 in
                    let id =
                        try written
                        ?? ExchangeRecorder.insertRow(
                            row ?? ExchangeRecorder.RowValues(arguments: [], storeRequested: true), db: db)
                    if let head {
                        try db.execute(
                            sql: """
                                UPDATE exchange SET status = ?, response_headers = ?, ttfb_ms = ?, streamed = ?,
                                                    request_id = ? WHERE id = ?
                                """,
                            arguments: [head.status, head.headers, head.ttfb, head.streamed, head.requestID, id])
                    }
                    if let body {
                        try db.execute(
                            sql: "UPDATE exchange SET response_body = ? WHERE id = ?", arguments: [body, id])
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
                                outcome.timeToFirstText?.milliseconds, finish.duration,
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
            } catch {
                (self.head, self.body, self.outcome) = kept
                throw error
            }
        }
    }
}
