import Foundation
import GRDB
import Logging
import ResponsesAPI
import Synchronization

/// The inspector's `ExchangeObserver`: it stores every exchange in the store. The row is written before
/// the request goes out (so a crash leaves a trace); events are handed off the streaming path and written
/// in batches by one writer task per exchange; secrets are redacted before anything reaches the disk.
public final class ExchangeRecorder: ExchangeObserver {
    public let store: InspectorStore
    let logger: Logger
    private let openExchanges = Mutex<OpenExchanges>(OpenExchanges())

    struct OpenExchanges {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    public init(store: InspectorStore, logger: Logger = Logger(label: "openresponses.inspector")) {
        self.store = store
        self.logger = logger
    }

    public func exchangeWillStart(_ request: ExchangeRequest) async -> any ExchangeRecording {
        let redactor = Redactor(secrets: request.secrets)
        let headers = redactor.redact(headers: request.headers)
        let body = redactor.redact(Redactor.redactingMCPSecrets(request.body))
        let json = body.isEmpty ? nil : try? JSONValue.parse(body)
        let model = json?["model"]?.stringValue
        let inputText = json.map(SearchableText.inputText(ofRequest:)).flatMap { $0.isEmpty ? nil : $0 }
        let pid = Int64(getpid())
        do {
            let id = try await store.writer.write { db -> Int64 in
                try db.execute(
                    sql: """
                        INSERT INTO exchange (started_at, method, url, request_headers, request_body, state, model,
                                              preset, session, replay_of, pid, attempt, input_text)
                        VALUES (?, ?, ?, ?, ?, 'in_progress', ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        request.startedAt, request.method, request.url, Self.encode(headers: headers),
                        Self.databaseValue(body), model, request.context.preset, request.context.session,
                        request.context.replayOf, pid, request.attempt, inputText,
                    ])
                return db.lastInsertedRowID
            }
            openExchanges.withLock { $0.count += 1 }
            return Recording(id: id, recorder: self, redactor: redactor)
        } catch {
            logger.error("inspector: cannot record \(request.method) \(request.url): \(error)")
            return DiscardingRecording()
        }
    }

    /// Waits until every exchange begun so far has been finished and written (or `timeout` passes).
    public func waitUntilIdle(timeout: Duration = .seconds(5)) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let resumeNow = self.openExchanges.withLock { state -> Bool in
                        if state.count == 0 { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        // A waiter left behind by the timeout is resumed when the last exchange closes.
    }

    func exchangeClosed() {
        let waiters = openExchanges.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    static func encode(headers: [(String, String)]) -> String {
        JSONValue.array(headers.map { .array([.string($0.0), .string($0.1)]) }).compactString
    }

    /// Text when the bytes are UTF-8 (so SQLite's JSON functions work on them), a blob otherwise: exact either way.
    static func databaseValue(_ bytes: [UInt8]) -> DatabaseValue {
        if let text = String(validating: bytes, as: UTF8.self) { return text.databaseValue }
        return Data(bytes).databaseValue
    }
}

/// Used when the exchange row could not be written: the request still goes out.
struct DiscardingRecording: ExchangeRecording {
    func didReceiveHead(_ head: ExchangeResponseHead) {}
    func didReceiveEvents(_ events: [RecordedEvent]) {}
    func didReceiveBody(_ body: [UInt8]) {}
    func didFinish(_ outcome: ExchangeOutcome) async {}
}
