import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ResponsesAPI

/// The recording proxy's server: Hummingbird's HTTP/1.1 server in front, a pooled AsyncHTTPClient
/// behind (TLS to the real API), the `RecordingProxy` between them.
public struct ProxyServer: Sendable {
    public let configuration: ProxyConfiguration
    let observer: (any ExchangeObserver)?
    /// Where users' spending is read from, for their budgets (`ProxyConfiguration.hasBudgets`): the store the
    /// observer records into.
    let spending: (any SpendReading)?
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        configuration: ProxyConfiguration, observer: (any ExchangeObserver)?, spending: (any SpendReading)? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "openresponses.proxy")
    ) {
        self.spending = spending
        self.configuration = configuration
        self.observer = observer
        self.now = now
        self.logger = logger
    }

    /// What is wrong with the configuration (`ProxyConfiguration.validate`), or with it and what the server
    /// was given: budgets with no store to read spending from.
    public func validate() throws(ProxyError) {
        try configuration.validate()
        if configuration.hasBudgets, spending == nil {
            throw ProxyError(
                "budgets are read from the inspector's recorded costs, and the inspector is off: unset OPENRESPONSES_INSPECTOR or give no budget"
            )
        }
    }

    /// Serves until the task is cancelled or, with `handlingSignals`, until SIGINT or SIGTERM arrives
    /// (then in-flight exchanges finish first). `onListening` gets the port once the socket is bound.
    public func run(
        handlingSignals: Bool = false, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try validate()
        var config = HTTPClient.Configuration()
        config.timeout = .init(
            connect: .nanoseconds(configuration.connectTimeout.nanoseconds),
            read: .nanoseconds(configuration.readTimeout.nanoseconds))
        config.decompression = .disabled
        config.redirectConfiguration = .disallow
        config.connectionPool.retryConnectionEstablishment = false
        // Many clients at once (an agent's parallel calls, a team's gateway): one upstream connection each, kept
        // for reuse, up to the configured number; past it a request waits for a connection to be free.
        config.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.upstreamConnections
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        let recordings = RecordingTasks()
        let gate = ProxyGate(host: configuration.host, port: configuration.port)
        let responder = RecordingProxy(
            configuration: configuration, client: client, observer: observer, now: now, logger: logger,
            recordings: recordings, gate: gate,
            spending: configuration.hasBudgets
                ? spending.map { SpendCache(reader: $0, freshness: configuration.spendFreshness) } : nil)
        let port = configuration.port
        // Hummingbird's own log says "Server started" at info and, on a cancelled shutdown, "Waiting on child
        // channel: CancellationError()" at error: noise unless debugging, when it shows everything.
        var serverLogger = logger
        if logger.logLevel > .debug { serverLogger.logLevel = .critical }
        // A connection with nothing in flight for `idleTimeout` is closed (a stream being answered is not idle).
        let idle = TimeAmount.nanoseconds(configuration.idleTimeout.nanoseconds)
        let application = Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                gate.bind(port: bound)
                await onListening(bound)
            },
            logger: serverLogger)
        do {
            if handlingSignals {
                try await application.runService()
            } else {
                try await application.run()
            }
        } catch {
            await recordings.waitForAll()
            try? await client.shutdown()
            throw error
        }
        // Streams their clients already have may still be being recorded: none is cut short.
        await recordings.waitForAll()
        try? await client.shutdown()
    }
}
