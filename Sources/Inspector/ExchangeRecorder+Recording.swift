import Foundation
import GRDB
import ResponsesAPI
import Synchronization

extension ExchangeRecorder {
    /// The recording of one exchange. Callbacks only hand their data to the exchange's writer task, which
    /// does all the work in order: it packs events into batches (stored at 1 MB, or 200 ms after the
    /// first unstored event, so a killed process loses at most that much) and writes the rows.
    final class Recording: ExchangeRecording {
        enum Operation: Sendable {
            case head(ExchangeResponseHead)
            case events(RecordedEvents)
            /// Store the pending events now (sent by the writer's own timer).
            case flush
            case body([UInt8])
            case finish(ExchangeOutcome)
        }

        static let batchBytes = 1 << 20
        static let batchDelay = Duration.milliseconds(200)

        private let operations: AsyncStream<Operation>.Continuation
        private let writer: Task<Void, Never>
        private let recorder: ExchangeRecorder

        init(request: ExchangeRequest, recorder: ExchangeRecorder) {
            self.recorder = recorder
            let (stream, continuation) = AsyncStream.makeStream(of: Operation.self)
            self.operations = continuation
            let logger = recorder.logger
            self.writer = Task.detached {
                // The row first: the store may still be opening; nothing of the exchange waits for it.
                let redactor = Redactor(secrets: request.secrets)
                var row: (store: InspectorStore, id: Int64)?
                if case .success(let store) = await recorder.opening.value() {
                    do {
                        row = (store, try await recorder.insert(request, redactor: redactor, into: store))
                    } catch {
                        logger.error("inspector: cannot record \(request.method) \(request.url): \(error)")
                    }
                }
                guard let (store, id) = row else {
                    // Nothing can be stored (the opening failure was reported once, when it happened).
                    for await operation in stream {
                        if case .finish = operation { continuation.finish() }
                    }
                    return
                }
                var texts = SearchableText()
                var batch = EventBatch()
                for await operation in stream {
                    do {
                        switch operation {
                        case .events(let events):
                            let wasEmpty = batch.isEmpty
                            for entry in events.entries { texts.collect(entry) }
                            batch.append(events)
                            if batch.byteCount >= Self.batchBytes {
                                try await Self.store(&batch, id: id, store: store, redactor: redactor)
                            } else if wasEmpty, !batch.isEmpty {
                                Task {
                                    try? await Task.sleep(for: Self.batchDelay)
                                    continuation.yield(.flush)
                                }
                            }
                        case .flush:
                            try await Self.store(&batch, id: id, store: store, redactor: redactor)
                        case .finish:
                            try await Self.store(&batch, id: id, store: store, redactor: redactor)
                            try await Self.write(operation, id: id, store: store, redactor: redactor, texts: &texts)
                        default:
                            try await Self.write(operation, id: id, store: store, redactor: redactor, texts: &texts)
                        }
                    } catch {
                        logger.error("inspector: cannot write exchange \(id): \(error)")
                    }
                    if case .finish = operation { continuation.finish() }
                }
            }
        }

        func didReceiveHead(_ head: ExchangeResponseHead) {
            operations.yield(.head(head))
        }

        func didReceiveEvents(_ events: RecordedEvents) {
            operations.yield(.events(events))
        }

        func didReceiveBody(_ body: [UInt8]) {
            operations.yield(.body(body))
        }

        func didFinish(_ outcome: ExchangeOutcome) async {
            operations.yield(.finish(outcome))
            await writer.value
            recorder.exchangeClosed()
        }

        /// Writes the pending events as one row, in their own transaction.
        private static func store(
            _ batch: inout EventBatch, id: Int64, store: InspectorStore, redactor: Redactor
        ) async throws {
            guard let packed = batch.pack(redactor: redactor) else { return }
            try await store.writer.write { db in
                try EventBatch.insert(packed, exchange: id, db: db)
                try db.execute(
                    sql: "UPDATE exchange SET event_count = event_count + ? WHERE id = ?", arguments: [packed.count, id])
            }
            batch.recycle(packed)
        }

        private static func write(
            _ operation: Operation, id: Int64, store: InspectorStore, redactor: Redactor, texts: inout SearchableText
        ) async throws {
            switch operation {
            case .head(let head):
                let isStream = head.headers.headerValue("content-type")?.lowercased().contains("text/event-stream") ?? false
                let requestID = head.headers.headerValue("x-request-id")
                try await store.writer.write { db in
                    try db.execute(
                        sql: """
                            UPDATE exchange SET status = ?, response_headers = ?, ttfb_ms = ?, streamed = ?,
                                                request_id = ? WHERE id = ?
                            """,
                        arguments: [
                            head.status, ExchangeRecorder.encode(headers: redactor.redact(headers: head.headers)),
                            head.timeToFirstByte.milliseconds, isStream, requestID, id,
                        ])
                }
            case .events, .flush:
                break  // handled by the writer loop
            case .body(let body):
                texts.collect(body: body)
                let value = ExchangeRecorder.databaseValue(redactor.redact(body))
                try await store.writer.write { db in
                    try db.execute(sql: "UPDATE exchange SET response_body = ? WHERE id = ?", arguments: [value, id])
                }
            case .finish(let outcome):
                let error = outcome.error.map { redactor.redact(Self.encode($0)) }
                if let message = outcome.error?.message { texts.events += message + "\n" }
                let output = redactor.redact(texts.output)
                let eventText = redactor.redact(texts.events)
                let cost = PriceTable.shipped.cost(model: outcome.model, usage: outcome.usage)
                try await store.writer.write { db in
                    try db.execute(
                        sql: "UPDATE exchange SET output_text = ?, event_text = ?, cost_usd = ? WHERE id = ?",
                        arguments: [output.isEmpty ? nil : output, eventText.isEmpty ? nil : eventText, cost, id])
                    try db.execute(
                        sql: """
                            INSERT INTO exchange_fts (rowid, input_text, output_text, event_text)
                            SELECT id, COALESCE(input_text, ''), ?, ? FROM exchange WHERE id = ?
                            """,
                        arguments: [output, eventText, id])
                    try db.execute(
                        sql: """
                            UPDATE exchange SET state = ?, error = ?, request_id = COALESCE(request_id, ?),
                                ttft_ms = ?, duration_ms = ?, response_id = ?, model = COALESCE(?, model),
                                response_status = ?, input_tokens = ?, cached_tokens = ?, output_tokens = ?,
                                reasoning_tokens = ?, total_tokens = ?
                            WHERE id = ?
                            """,
                        arguments: [
                            outcome.state.rawValue, error, outcome.error?.requestID,
                            outcome.timeToFirstText?.milliseconds, outcome.duration.milliseconds,
                            outcome.responseID, outcome.model, outcome.responseStatus, outcome.usage?.inputTokens,
                            outcome.usage?.cachedInputTokens, outcome.usage?.outputTokens,
                            outcome.usage?.reasoningTokens, outcome.usage?.totalTokens, id,
                        ])
                }
            }
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
