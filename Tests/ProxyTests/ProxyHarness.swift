import Foundation
import Inspector
import Proxy
import ResponsesAPI
import Synchronization
import TestSupport

/// A recording proxy in this process: a fresh inspector store in a temporary directory, the proxy in front
/// of `upstream` on a free loopback port, and helpers to read what it recorded.
final class ProxyHarness: Sendable {
    let directory: URL
    let recorder: ExchangeRecorder
    let port: Int
    /// What the proxy logged, debug level included.
    let log: CollectedLog.Lines
    /// The store's answers to the proxy's questions about spending, counted.
    let spending: StoreSpending
    private let task: Task<Void, any Error>

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    var storePath: String { directory.appendingPathComponent("inspector.sqlite").path }

    private init(
        directory: URL, recorder: ExchangeRecorder, port: Int, log: CollectedLog.Lines, spending: StoreSpending,
        task: Task<Void, any Error>
    ) {
        self.spending = spending
        self.log = log
        self.directory = directory
        self.recorder = recorder
        self.port = port
        self.task = task
    }

    /// `backlog`: how much of a stream may wait in memory for the recording before the rest waits in the
    /// spool (in the store's directory, as `openresponses proxy` has it).
    /// `idleTimeout`: how long a connection with nothing in flight stays open.
    /// `users`, `budget`, `health`: as `--tokens-file`, `--budget-per-user` and `--health`; users' spending is
    /// read from the store (`StoreSpending`) unless `spending` says otherwise, each figure kept for
    /// `spendFreshness`.
    static func start(
        upstream: String, token: String? = nil, upstreamKey: String? = nil, backlog: Int = 2 << 20,
        idleTimeout: Duration = .seconds(60), users: ProxyUsers? = nil, budget: Double? = nil, health: Bool = false,
        spending: (any SpendReading)? = nil, spendFreshness: Duration = .zero
    ) async throws -> ProxyHarness {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = CollectedLog.Lines()
        let recorder = ExchangeRecorder(
            openingStoreAt: directory.appendingPathComponent("inspector.sqlite").path, provider: "default",
            onFailure: { print("inspector failed: \($0)") })
        let storeSpending = StoreSpending(recorder: recorder)
        let server = ProxyServer(
            configuration: ProxyConfiguration(
                port: 0, upstream: upstream, token: token, upstreamKey: upstreamKey, provider: "default",
                recordingBacklog: backlog, spoolDirectory: directory.path, idleTimeout: idleTimeout, users: users,
                defaultBudget: budget, spendFreshness: spendFreshness, health: health),
            observer: recorder, spending: spending ?? storeSpending,
            logger: CollectedLog.logger(into: log))
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw SubprocessError("the proxy stopped before it listened")
        }
        return ProxyHarness(
            directory: directory, recorder: recorder, port: port, log: log, spending: storeSpending, task: task)
    }

    /// Stops the proxy, waits for every exchange to be written, and returns the store.
    func stop() async throws -> InspectorStore {
        task.cancel()
        _ = try? await task.value
        await recorder.waitUntilIdle(timeout: .seconds(10))
        guard let store = await recorder.openedStore() else {
            throw SubprocessError("the inspector store did not open")
        }
        return store
    }

    /// The exchanges recorded, oldest first, with their events.
    func exchanges(in store: InspectorStore) async throws -> [ExchangeDetail] {
        var details: [ExchangeDetail] = []
        for summary in try await store.exchanges(matching: ExchangeQuery(limit: 1000)).reversed() {
            if let detail = try await store.exchange(id: summary.id) { details.append(detail) }
        }
        return details
    }

    /// Whether `needle` occurs in any of the store's files (database, WAL, shared memory).
    func storeContains(_ needle: String) throws -> Bool {
        var read = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name.hasPrefix("inspector.sqlite") {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            read += 1
            if data.range(of: Data(needle.utf8)) != nil { return true }
        }
        guard read > 0 else { throw SubprocessError("no store file in \(directory.path)") }
        return false
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// `remove()`, and the upstream the proxy was in front of stopped (in a task of its own, as a `defer` wants).
    func remove(stopping upstream: LoopbackServer) {
        remove()
        Task { await upstream.stop() }
    }

    /// curl through the proxy: the body it received goes to a file; returns the status line's code.
    func curl(_ path: String, _ arguments: [String] = [], output: URL) async throws -> Subprocess.Result {
        try await Subprocess.run(
            "/usr/bin/curl", ["-sS", "-N", "-o", output.path, "-w", "%{http_code}"] + arguments + [baseURL + path],
            environment: ["PATH": "/usr/bin:/bin"])
    }
}

/// The proxy's question about a user's spending, answered by the store the harness records into (as
/// `openresponses proxy` has its recorder answer it), counting how often it was asked.
final class StoreSpending: SpendReading {
    let recorder: ExchangeRecorder
    private let count = Mutex(0)

    init(recorder: ExchangeRecorder) {
        self.recorder = recorder
    }

    /// How many times it was asked.
    var asked: Int { count.withLock { $0 } }

    func spent(user: String, since: Date) async throws -> Double {
        count.withLock { $0 += 1 }
        return try await recorder.spent(user: user, since: since)
    }
}
