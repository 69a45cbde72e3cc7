import Foundation
import Inspector
import Logging
import Proxy
import ResponsesAPI
import Workbench

/// `openresponses proxy`: the recording proxy in front of the configured server (or `--upstream`),
/// recording into this context's inspector. Says where it listens, then serves until Ctrl-C.
public struct ProxyRunner: Sendable {
    public struct Options: Sendable {
        /// `HOST:PORT`, `:PORT` or `PORT`.
        public var listen: String
        public var upstream: String?
        public var token: String?
        /// A file holding the token (mode 0600 or stricter), instead of `token`.
        public var tokenFile: String?
        public var keyFromEnvironment: Bool
        /// A team's users, `NAME: TOKEN [budget=USD]` a line (mode 0600 or stricter), instead of a token.
        public var tokensFile: String?
        /// The daily budget in US dollars of a user whose line gives none.
        public var budgetPerUser: Double?
        /// Answer `GET /health` without a token.
        public var health: Bool
        /// The most connections open to the upstream at once.
        public var upstreamConnections: Int

        public init(
            listen: String = "127.0.0.1:8787", upstream: String? = nil, token: String? = nil, tokenFile: String? = nil,
            keyFromEnvironment: Bool = false, tokensFile: String? = nil, budgetPerUser: Double? = nil,
            health: Bool = false, upstreamConnections: Int = 256
        ) {
            self.upstreamConnections = upstreamConnections
            self.tokensFile = tokensFile
            self.budgetPerUser = budgetPerUser
            self.health = health
            self.listen = listen
            self.upstream = upstream
            self.token = token
            self.tokenFile = tokenFile
            self.keyFromEnvironment = keyFromEnvironment
        }
    }

    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    /// The listening address of `--listen`: `HOST:PORT` (IPv6 in brackets), `:PORT` or `PORT`.
    static func address(_ text: String) throws(ProxyError) -> (host: String, port: Int) {
        var host = "127.0.0.1"
        var portText = text
        if let colon = text.lastIndex(of: ":") {
            let written = String(text[..<colon])
            if !written.isEmpty {
                host =
                    written.hasPrefix("[") && written.hasSuffix("]") ? String(written.dropFirst().dropLast()) : written
            }
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ProxyError("--listen \(text): expected HOST:PORT, :PORT or PORT (example: 127.0.0.1:8787)")
        }
        return (host, port)
    }

    public func run(_ options: Options) async -> ExitStatus {
        // Diagnostics (an upstream that fails, the server's own) on stderr, warnings and worse unless
        // OPENRESPONSES_LOG_LEVEL says otherwise (debug, info, ...).
        var logger = Logger(label: "openresponses.proxy") { TerminalLogHandler(label: $0) }
        logger.logLevel =
            context.environment["OPENRESPONSES_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let configuration: ProxyConfiguration
        let server: ProxyServer
        let spending: (any SpendReading)?
        do {
            let (host, port) = try Self.address(options.listen)
            var token = options.token
            if let file = options.tokenFile {
                guard token == nil else { throw ProxyError("give --token or --token-file, not both") }
                token = try ProxyToken.read(fromFile: file)
            }
            var users: ProxyUsers?
            if let file = options.tokensFile {
                guard token == nil else { throw ProxyError.tokensAndToken }
                users = try ProxyUsers.read(fromFile: file)
            }
            var key: String?
            if options.keyFromEnvironment {
                guard let configured = context.configuration.apiKey else {
                    throw ProxyError("--key-from-env: OPENAI_API_KEY is not set (or the provider has no key)")
                }
                key = configured
            }
            configuration = ProxyConfiguration(
                host: host, port: port, upstream: options.upstream ?? context.configuration.baseURL, token: token,
                upstreamKey: key, provider: context.providerName,
                connectTimeout: context.configuration.connectTimeout, readTimeout: context.configuration.readTimeout,
                spoolDirectory: (context.environment.inspectorPath as NSString).deletingLastPathComponent,
                users: users, defaultBudget: options.budgetPerUser, health: options.health,
                upstreamConnections: options.upstreamConnections)
            spending = try Self.spending(recorder: context.recorder, environment: context.environment)
            server = ProxyServer(
                configuration: configuration, observer: context.recorder, spending: spending,
                now: context.environment.now,
                logger: logger)
            try server.validate()
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
            return .usage
        }
        let output = context.output
        let inspector =
            context.recorder == nil
            ? "not recording (the inspector is off)" : "recording into \(context.environment.inspectorPath)"
        do {
            try await shippingToTeam {
                try await server.run { port in
                    output.write(Self.banner(configuration, port: port, inspector: inspector))
                }
            }
            await Self.close(spending)
        } catch {
            await Self.close(spending)
            if Task.isCancelled || error is CancellationError {
                output.write("\nProxy stopped.\n")
                return .success
            }
            context.diagnostics.write("error: the proxy stopped: \(error)\n")
            return .apiError
        }
        output.write("\nProxy stopped.\n")
        return .success
    }

    /// What the proxy says once it listens: where, to what, what it records, and how clients get in.
    static func banner(_ configuration: ProxyConfiguration, port: Int, inspector: String) -> String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let key =
            configuration.users != nil
            ? " with its user's token as its key" : configuration.token == nil ? "" : " with the token as its key"
        var lines = [
            "Proxy on http://\(host):\(port)/v1 -> \(configuration.upstream), \(inspector).",
            "Point a client at it: OPENAI_BASE_URL=http://\(host):\(port)/v1\(key). "
                + "openresponses inspect watch follows the exchanges; Ctrl-C stops.",
        ]
        if let users = configuration.users?.users {
            let budgeted = users.filter { ($0.budget ?? configuration.defaultBudget) != nil }.count
            lines.append(
                "\(users.count) user\(users.count == 1 ? "" : "s") from the tokens file, \(budgeted) with a daily budget (UTC)."
            )
        }
        if configuration.health {
            lines.append("GET http://\(host):\(port)/health answers {\"status\":\"ok\"} without a token.")
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// The inspector's answer to the proxy's question before a request of a user with a budget: what the user
/// has spent since midnight UTC, from the costs the recorder stored.
struct RecorderSpending: SpendReading {
    let recorder: ExchangeRecorder

    func spent(user: String, since: Date) async throws -> Double {
        try await recorder.spent(user: user, since: since)
    }
}
