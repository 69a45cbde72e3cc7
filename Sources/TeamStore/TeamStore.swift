#if TeamInspector
    import Foundation
    import Logging
    import PostgresNIO
    import ResponsesAPI

    /// A team's inspector on PostgreSQL (Docs/team.md): one connection to it, migrated on first use. Local stores
    /// push their finished exchanges to it (`TeamStore+Push`); every `inspect` reading command can read it
    /// (`TeamStore+Queries`). Each operation has a deadline (`patience`): a database that stopped answering
    /// fails the operation instead of holding it, and what was not pushed waits in the local store.
    public struct TeamStore: Sendable {
        public let address: TeamStoreAddress
        let connection: PostgresConnection
        let logger: Logger
        public let patience: Duration

        /// Connects to `address` and brings its schema up to date (under an advisory lock, so that many
        /// processes on many machines opening a new database at once migrate it once).
        public static func open(
            _ address: TeamStoreAddress, patience: Duration = .seconds(10),
            logger: Logger = Logger(label: "openresponses.team")
        ) async throws(TeamStoreError) -> TeamStore {
            var configuration = PostgresConnection.Configuration(
                host: address.host, port: address.port, username: address.user, password: address.password,
                database: address.database, tls: try tls(address))
            configuration.options.connectTimeout = .milliseconds(Int64(patience.milliseconds))
            let connection: PostgresConnection
            let settings = configuration
            do {
                // A connection made after the deadline is closed, never dropped open (PostgresNIO asserts that a
                // connection is closed before it goes: a debug build stops there).
                let closeLate: @Sendable (PostgresConnection) -> Void = { late in
                    late.close().whenComplete { _ in _ = late }
                }
                let connect: @Sendable () async throws -> PostgresConnection = {
                    try await PostgresConnection.connect(configuration: settings, id: 1, logger: logger)
                }
                connection = try await deadline(patience, address: address, onLate: closeLate, connect)
            } catch {
                throw failure(error, doing: "connect", address: address)
            }
            let store = TeamStore(address: address, connection: connection, logger: logger, patience: patience)
            do {
                try await store.migrate()
            } catch {
                await store.close()
                throw error
            }
            return store
        }

        /// Runs `body` with the store at `address` open, and closes it whatever `body` does.
        public static func with<T: Sendable>(
            _ address: TeamStoreAddress, patience: Duration = .seconds(10),
            _ body: (TeamStore) async throws -> T
        ) async throws -> T {
            let store = try await open(address, patience: patience)
            do {
                let value = try await body(store)
                await store.close()
                return value
            } catch {
                await store.close()
                throw error
            }
        }

        /// Ends the connection.
        /// Whether the connection has ended (a deadline that passed closes it).
        public var isClosed: Bool { connection.isClosed }

        public func close() async {
            try? await connection.close()
        }

        static func tls(_ address: TeamStoreAddress) throws(TeamStoreError) -> PostgresConnection.Configuration.TLS {
            switch address.tls {
            case .disable: return .disable
            case .prefer, .require:
                do {
                    let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                    return address.tls == .require ? .require(context) : .prefer(context)
                } catch {
                    throw TeamStoreError("\(address): TLS could not be set up: \(error)")
                }
            }
        }

        /// Runs `body` on the connection within `patience`. A connection the server has closed fails at once; one
        /// that does not answer in time is closed, so that nothing waits on it again.
        func run<T: Sendable>(
            _ what: String, within limit: Duration? = nil,
            _ body: @escaping @Sendable (PostgresConnection) async throws -> T
        ) async throws(TeamStoreError) -> T {
            let connection = connection
            guard !connection.isClosed else {
                throw TeamStoreError("could not \(what) at \(address): the connection was closed", unreachable: true)
            }
            do {
                let closing: @Sendable () -> Void = { let _: EventLoopFuture<Void> = connection.close() }
                return try await Self.deadline(limit ?? patience, address: address, onTimeout: closing) {
                    try await body(connection)
                }
            } catch {
                throw Self.failure(error, doing: what, address: address)
            }
        }

        /// `body`'s result, or a timeout once `limit` has passed. It returns then, whatever `body` does: a query
        /// on a connection whose server went away can wait on a promise nobody fulfils, and a task group would
        /// wait for it (it is cancelled and `onTimeout` runs, which closes the connection).
        /// `onLate` gets a value `body` gave after the timeout or the cancellation had been delivered (a connection
        /// that must still be closed).
        static func deadline<T: Sendable>(
            _ limit: Duration, address: TeamStoreAddress, onTimeout: @escaping @Sendable () -> Void = {},
            onLate: @escaping @Sendable (T) -> Void = { _ in },
            _ body: @escaping @Sendable () async throws -> T
        ) async throws -> T {
            let outcome = Once<T>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    outcome.install(continuation)
                    // Cancelled before it began: no work is started (a connection made now would be left open).
                    guard !outcome.isDone else { return }
                    let work = Task {
                        do {
                            let value = try await body()
                            if !outcome.resume(.success(value)) { onLate(value) }
                        } catch {
                            outcome.resume(.failure(error))
                        }
                    }
                    outcome.onCancel { work.cancel() }
                    Task {
                        try? await Task.sleep(for: limit)
                        let timeout = TeamStoreError(
                            "\(address) did not answer within \(Int(limit.milliseconds / 1000)) s", unreachable: true)
                        if outcome.resume(.failure(timeout)) {
                            outcome.cancelWork()
                            onTimeout()
                        }
                    }
                }
            } onCancel: {
                if outcome.resume(.failure(CancellationError())) { outcome.cancelWork() }
            }
        }

        /// The error shown for `error` met while doing `what`: the server's own message for what it refused,
        /// the address (never the password) for what did not reach it.
        public static func failure(_ error: any Error, doing what: String, address: TeamStoreAddress) -> TeamStoreError
        {
            if let error = error as? TeamStoreError { return error }
            // A transaction's failure is that of the statement within it (or of its BEGIN or COMMIT).
            if let error = error as? PostgresTransactionError,
                let cause = error.closureError ?? error.commitError ?? error.beginError
            {
                return failure(cause, doing: what, address: address)
            }
            if let error = error as? SharedIdentity {
                return TeamStoreError(
                    "\(address) has exchange \(error.localID) of this store's identity with another request: another store has this identity (a copied data directory)",
                    sharedIdentity: true)
            }
            if let error = error as? PSQLError {
                if let message = error.serverInfo?[.message] {
                    let code = error.serverInfo?[.sqlState] ?? ""
                    // Only a value it will not hold (22, 23, 54) or a statement past its time (57014) is the data's
                    // fault, to be refused alone; anything else (a connection, a standby that is read-only, a lost
                    // grant, a deadlock, a shutdown) is the database's, and what was being pushed waits.
                    let unreachable = !(isDataError(code) || code == "57014")
                    return TeamStoreError(
                        "\(address) refused to \(what): \(message)\(code.isEmpty ? "" : " (SQLSTATE \(code))")",
                        unreachable: unreachable)
                }
                return TeamStoreError(
                    "could not \(what) at \(address): \(error.underlying.map(reason) ?? "\(error.code)")",
                    unreachable: true)
            }
            if error is CancellationError {
                return TeamStoreError("\(what) at \(address): cancelled", exitStatus: .interrupted, unreachable: true)
            }
            return TeamStoreError("could not \(what) at \(address): \(reason(error))", unreachable: true)
        }

        /// A connection's failure in a few words: the system's for a refused or unreachable address.
        static func reason(_ error: any Error) -> String {
            if let error = error as? NIOConnectionError,
                let first = error.connectionErrors.first?.error ?? error.dnsAError ?? error.dnsAAAAError
            {
                return reason(first)
            }
            if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
            return "\(error)"
        }
    }
#endif
