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
                connection = try await deadline(patience, address: address) {
                    try await PostgresConnection.connect(configuration: settings, id: 1, logger: logger)
                }
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

        /// Ends the connection.
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

        /// Runs `body` on the connection within `patience`.
        func run<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
            async throws(TeamStoreError) -> T
        {
            let connection = connection
            do {
                return try await Self.deadline(patience, address: address) { try await body(connection) }
            } catch {
                throw Self.failure(error, doing: what, address: address)
            }
        }

        /// `body`'s result, or a timeout once `limit` has passed (the operation is cancelled).
        static func deadline<T: Sendable>(
            _ limit: Duration, address: TeamStoreAddress, _ body: @escaping @Sendable () async throws -> T
        ) async throws -> T {
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw TeamStoreError(
                        "\(address) did not answer within \(limit.milliseconds / 1000) s", unreachable: true)
                }
                return value
            }
        }

        /// The error shown for `error` met while doing `what`: the server's own message for what it refused,
        /// the address (never the password) for what did not reach it.
        public static func failure(_ error: any Error, doing what: String, address: TeamStoreAddress) -> TeamStoreError
        {
            if let error = error as? TeamStoreError { return error }
            if let error = error as? PSQLError {
                if let message = error.serverInfo?[.message] {
                    let code = error.serverInfo?[.sqlState] ?? ""
                    // Class 08 (connection), 57P (shut down), 53 (no resources): the database, not the data.
                    let unreachable = code.hasPrefix("08") || code.hasPrefix("57P") || code.hasPrefix("53")
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
