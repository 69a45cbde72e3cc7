import Foundation
import GRDB
import GRDBSQLite
import Logging
import ResponsesAPI
import StoreSupport
import Synchronization

/// The inspector's `ExchangeObserver`: it stores every exchange in the store. Nothing waits for the
/// database on the request's path, nor competes with it for the processor: the store may still be opening
/// when the first request goes out, and each exchange's writer task writes its row with the first of what
/// the exchange brings (or alone, `rowDelay` after the start), then its events in batches, then
/// its outcome. Secrets are redacted before anything reaches the disk.
public final class ExchangeRecorder: ExchangeObserver {
    let opening: StoreOpening
    let logger: Logger
    /// The provider every exchange of this recorder went to (`default` or a name from config.yaml), unless
    /// its context's `provider` label says otherwise.
    let provider: String?
    /// How soon an exchange's row is written when nothing of it has come yet (a request waiting for its
    /// answer): `inspect watch` shows the exchange by then. Sooner, with what comes first.
    let rowDelay: Duration
    public static let defaultRowDelay = Duration.milliseconds(50)
    private let openExchanges = Mutex<OpenExchanges>(OpenExchanges())
    /// Told the first write that fails (`ExchangeRecorder+Failures`); nil: the error log is.
    let onWriteFailure: (@Sendable (StoreWriteFailure) -> Void)?
    let writeFailureTold = Mutex(false)

    struct OpenExchanges {
        var count = 0
        var nextWaiter = 0
        /// Each waiter is resumed with true when the last open exchange closes, or with false by its timer.
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    /// Records into a store that is already open.
    public init(
        store: InspectorStore, provider: String? = nil, rowDelay: Duration = defaultRowDelay,
        logger: Logger = Logger(label: "openresponses.inspector"),
        onWriteFailure: (@Sendable (StoreWriteFailure) -> Void)? = nil
    ) {
        self.opening = StoreOpening(opened: store)
        self.provider = provider
        self.rowDelay = rowDelay
        self.logger = logger
        self.onWriteFailure = onWriteFailure
    }

    /// Records into the store at `path`, opened (and migrated, and its interrupted exchanges marked) on a
    /// background thread. A damaged store is moved aside and replaced, and `onRepair` is told where it
    /// went. When the store cannot be opened, `onFailure` is told once and nothing is recorded. When it
    /// opens but a write fails, `onWriteFailure` is told once (`ExchangeRecorder+Failures`).
    public convenience init(
        openingStoreAt path: String, now: Date = Date(), provider: String? = nil,
        logger: Logger = Logger(label: "openresponses.inspector"),
        onRepair: @escaping @Sendable (DamagedStore) -> Void = { _ in },
        onWriteFailure: (@Sendable (StoreWriteFailure) -> Void)? = nil,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) {
        self.init(
            opening: StoreOpening(storeAt: path, now: now), provider: provider, logger: logger, onRepair: onRepair,
            onWriteFailure: onWriteFailure, onFailure: onFailure)
    }

    /// Records into the store that `opening` opens (or has opened: it may have begun before this recorder
    /// was thought of). `onRepair` and `onFailure` are told as for `init(openingStoreAt:)`, when the
    /// opening ends or at once when it already has.
    public init(
        opening: StoreOpening, provider: String? = nil, rowDelay: Duration = defaultRowDelay,
        logger: Logger = Logger(label: "openresponses.inspector"),
        onRepair: @escaping @Sendable (DamagedStore) -> Void = { _ in },
        onWriteFailure: (@Sendable (StoreWriteFailure) -> Void)? = nil,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) {
        self.opening = opening
        self.provider = provider
        self.rowDelay = rowDelay
        self.logger = logger
        self.onWriteFailure = onWriteFailure
        opening.when { result in
            let (repaired, error) = StoreOpening.outcome(of: result)
            if let repaired { onRepair(repaired) }
            if let error { onFailure(error) }
        }
    }

    /// The store, once open (blocking until then: for synchronous callers, never the concurrency pool);
    /// nil when it could not be opened.
    public var store: InspectorStore? {
        try? opening.wait().get()
    }

    /// The store, once open; nil when it could not be opened.
    public func openedStore() async -> InspectorStore? {
        try? await opening.value().get()
    }

    /// What `user` has spent since `since`, in the store this recorder writes to (`InspectorStore.spent`);
    /// throws what kept the store from opening.
    public func spent(user: String, since: Date) async throws -> Double {
        try await opening.value().get().spent(user: user, since: since)
    }

    public func exchangeWillStart(_ request: ExchangeRequest) async -> any ExchangeRecording {
        openExchanges.withLock { $0.count += 1 }
        return Recording(request: request, recorder: self)
    }

    /// The values of an exchange's row (redacted headers and body, and what search and the lists need of
    /// them), and whether the request asked for the response to be stored (for the ledger).
    func row(of request: ExchangeRequest, redactor: Redactor) -> RowValues {
        let headers = redactor.redact(headers: request.headers)
        // Read with each string cut to the search index's size (a piped document can make the body tens of
        // megabytes, and none of it need be copied); parsed whole only to redact an MCP tool's secrets. What
        // is taken from it is redacted as the body is.
        let json =
            request.body.isEmpty ? nil : try? JSONValue.parse(request.body, stringPrefix: SearchableText.inputTextLimit)
        let body = redactor.redact(Redactor.redactingMCPSecrets(request.body, skimmed: json))
        let model = json?["model"]?.stringValue.map { redactor.redact($0) }
        let inputText = json.map { redactor.redact(SearchableText.inputText(ofRequest: $0)) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let arguments: StatementArguments = [
            StorageDate.string(request.startedAt), request.method, redactor.redact(url: request.url),
            Self.encode(headers: headers),
            body.count > Self.inPlaceBodySize ? DatabaseValue.null : Self.databaseValue(body), model,
            request.context.preset, request.context.session,
            request.context.replayOf, Int64(getpid()), request.attempt, inputText,
            request.context.labels["provider"] ?? provider,
            request.context.labels["source"] ?? "console", request.context.labels["client"],
            request.context.evalRun, request.context.batchID, request.context.labels["batch_request"],
            request.context.user,
        ]
        return RowValues(
            arguments: arguments, storeRequested: json?["store"]?.boolValue != false,
            largeBody: body.count > Self.inPlaceBodySize ? body : nil)
    }

    /// What `row(of:redactor:)` gives: the row's values, whether the request asked for its response to be
    /// stored, and a body too large to copy, written by SQLite from its own bytes (`insertRow`).
    struct RowValues {
        var arguments: StatementArguments
        var storeRequested: Bool
        var largeBody: [UInt8]?
    }

    /// Request bodies larger than this are bound without a copy (a String made of them, then SQLite's own
    /// copy, held a 40 MB piped document three times at once).
    static let inPlaceBodySize = 1 << 20

    /// Writes an exchange's row (the values `row(of:redactor:)` gives) and returns its id.
    static func insertRow(_ row: RowValues, db: Database) throws -> Int64 {
        let id = try insertRow(row.arguments, db: db)
        if let body = row.largeBody { try writeBody(body, exchange: id, db: db) }
        return id
    }

    /// A large request body of exchange `id`, in `exchange_request` (migration v13: later writes of the
    /// exchange's row do not copy it again), written a mebibyte at a time through SQLite's blob I/O into a
    /// zero-filled blob: a value bound whole, even in place, is copied once more into the record SQLite
    /// builds, and a zero blob at the end of a record is not. Read back as the same bytes.
    static func writeBody(_ body: [UInt8], exchange id: Int64, db: Database) throws {
        try db.execute(
            sql: "INSERT INTO exchange_request (exchange_id, body) VALUES (?, zeroblob(?))",
            arguments: [id, body.count])
        var blob: OpaquePointer?
        var code = sqlite3_blob_open(db.sqliteConnection, "main", "exchange_request", "body", id, 1, &blob)
        defer { sqlite3_blob_close(blob) }
        if code == SQLITE_OK {
            code = body.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = min(1 << 20, bytes.count - offset)
                    let written = sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset))
                    guard written == SQLITE_OK else { return written }
                    offset += count
                }
                return SQLITE_OK
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: "writing exchange \(id)'s request body")
        }
    }

    /// Writes an exchange's row from its values and returns its id.
    static func insertRow(_ row: StatementArguments, db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO exchange (started_at, method, url, request_headers, request_body, state, model,
                                      preset, session, replay_of, pid, attempt, input_text, provider, source, client,
                                      eval_run, batch_id, batch_request, user)
                VALUES (?, ?, ?, ?, ?, 'in_progress', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: row)
        return db.lastInsertedRowID
    }

    /// Waits until the store's opening is over and every exchange begun so far has been finished and
    /// written (or `timeout` passes). A command calls it before it exits, so the process never ends in
    /// the middle of the opening's migrations. Returns false when the timeout cut the wait short.
    @discardableResult
    public func waitUntilIdle(timeout: Duration = .seconds(5)) async -> Bool {
        _ = await opening.value()
        return await withCheckedContinuation { continuation in
            let id = openExchanges.withLock { state -> Int? in
                if state.count == 0 { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.openExchanges.withLock { $0.waiters.removeValue(forKey: id) }
                expired?.resume(returning: false)
            }
        }
    }

    /// Waits until idle (see `waitUntilIdle`), then leaves the store tidy for the next process (`tidyWAL`).
    /// A command calls it last, before it exits.
    public func finish(timeout: Duration = .seconds(5)) async {
        await waitUntilIdle(timeout: timeout)
        await openedStore()?.tidyWAL()
    }

    func exchangeClosed() {
        let waiters = openExchanges.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
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
