import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the recording proxy listens, where it forwards, and which key goes upstream.
public struct ProxyConfiguration: Sendable {
    /// The address it listens on: loopback unless told otherwise.
    public var host: String
    /// 0 asks the system for a free port (the tests); `ProxyServer`'s `onListening` says which.
    public var port: Int
    /// The upstream base URL, ending in `/v1` (`https://api.openai.com/v1`, `http://127.0.0.1:8321/v1`):
    /// a request for `/v1/responses` goes to `UPSTREAM/responses`.
    public var upstream: String
    /// When set, clients must send it as their key (`Authorization: Bearer TOKEN`) and the upstream gets
    /// `upstreamKey` instead. Required to listen beyond loopback, and whenever `upstreamKey` is set.
    public var token: String?
    /// Instead of `token`: a team's users, each with a token of its own (`--tokens-file`). The user a request's
    /// token names is recorded with its exchange, and a user with a budget is held to it.
    public var users: ProxyUsers?
    /// The daily budget in US dollars of a user whose line in the tokens file gives none (`--budget-per-user`).
    public var defaultBudget: Double?
    /// How long a user's spending, once read from the store, is used before it is read again.
    public var spendFreshness: Duration
    /// Answers `GET /health` itself, without a token (`--health`), for a load balancer.
    public var health: Bool
    /// The key the proxy itself sends upstream (`--key-from-env`); nil forwards the client's own.
    public var upstreamKey: String?
    /// The provider the upstream is (`default` or a name from config.yaml), for the inspector's column.
    public var provider: String?
    public var connectTimeout: Duration
    /// Silence from the upstream longer than this fails the exchange.
    public var readTimeout: Duration
    /// Request bodies up to this size are read whole and recorded byte for byte; larger ones (declared by
    /// Content-Length) are streamed upstream as they arrive and recorded as a placeholder naming their size.
    public var keptRequestBytes: Int
    /// Response bodies that are not event streams are recorded whole up to this size, else as a placeholder.
    public var keptResponseBytes: Int
    /// How much of an event stream may wait in memory for its recording (decoding and the store).
    public var recordingBacklog: Int
    /// Where an event stream faster than its recording waits for it past `recordingBacklog`, on disk (the
    /// inspector's directory): the client then gets it at the network's pace and the recording catches up
    /// after. nil makes the client wait instead.
    public var spoolDirectory: String?
    /// The most a stream may keep waiting in the spool before the client waits too.
    public var spoolLimit: Int
    /// A client connection with no request in flight (none being read, none being answered) for this long
    /// is closed.
    public var idleTimeout: Duration
    /// The most connections open to the upstream at once (`--upstream-connections`): each open stream holds one
    /// (HTTP/1.1), so past it a client's request waits for another's answer to end.
    public var upstreamConnections: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8787, upstream: String, token: String? = nil,
        upstreamKey: String? = nil,
        provider: String? = nil, connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(600),
        keptRequestBytes: Int = 16 << 20, keptResponseBytes: Int = 16 << 20, recordingBacklog: Int = 2 << 20,
        spoolDirectory: String? = nil, spoolLimit: Int = 1 << 30, idleTimeout: Duration = .seconds(60),
        users: ProxyUsers? = nil, defaultBudget: Double? = nil, spendFreshness: Duration = .seconds(2),
        health: Bool = false, upstreamConnections: Int = 256
    ) {
        self.upstreamConnections = upstreamConnections
        self.users = users
        self.defaultBudget = defaultBudget
        self.spendFreshness = spendFreshness
        self.health = health
        self.idleTimeout = idleTimeout
        self.recordingBacklog = recordingBacklog
        self.spoolDirectory = spoolDirectory
        self.spoolLimit = spoolLimit
        self.host = host
        self.port = port
        self.upstream = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        self.token = token
        self.upstreamKey = upstreamKey
        self.provider = provider
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.keptRequestBytes = keptRequestBytes
        self.keptResponseBytes = keptResponseBytes
    }

    /// True when the listening address is loopback, where only this machine's programs can connect: an IP
    /// literal in 127.0.0.0/8 or ::1, or a name every one of whose addresses is (`localhost`). Decided on the
    /// addresses, never the spelling: `127.evil.example` is a name like any other.
    public var listensOnLoopback: Bool {
        let addresses = IPAddress.resolve(host)
        return !addresses.isEmpty && addresses.allSatisfy(\.isLoopback)
    }

    /// What is wrong with this configuration, if anything: a non-loopback address without a token (anyone
    /// on the network could spend the key), the proxy's own key without a token (any program or web page on
    /// this machine could spend it), a token without a key to send upstream, an upstream that is not an
    /// http(s) URL.
    /// Whether some user is held to a budget: then the proxy needs a store to read spending from.
    public var hasBudgets: Bool {
        guard let users else { return false }
        return defaultBudget != nil || users.users.contains { $0.budget != nil }
    }

    public func validate() throws(ProxyError) {
        try validate(openFileLimit: Self.openFileLimit())
    }

    /// The files this process may have open (`ulimit -n`); nil when the system does not say.
    static func openFileLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
            guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        #else
            guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return nil }
        #endif
        return Int(clamping: limit.rlim_cur)
    }

    /// The same, given how many files the process may have open.
    func validate(openFileLimit: Int?) throws(ProxyError) {
        guard let url = URL(string: upstream), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ProxyError("--upstream \(upstream): not an http(s) URL (example: https://api.openai.com/v1)")
        }
        guard (1...4096).contains(upstreamConnections) else {
            throw ProxyError("--upstream-connections \(upstreamConnections): expected a number from 1 to 4096")
        }
        // Each stream holds two connections (the client's and the upstream's), and the store, the spool and the
        // listening socket a few more: past the process's limit, accepting or connecting would fail mid-service.
        let needed = 2 * upstreamConnections + 64
        if let openFileLimit, needed > openFileLimit {
            throw ProxyError(
                "--upstream-connections \(upstreamConnections): \(upstreamConnections) streams need about \(needed) open files, and this process may have \(openFileLimit) (ulimit -n; LimitNOFILE= in a systemd unit)"
            )
        }
        if token != nil, users != nil {
            throw ProxyError.tokensAndToken
        }
        let guarded = token != nil || users != nil
        if !listensOnLoopback, !guarded {
            throw ProxyError(
                "--listen \(host):\(port) is reachable from other machines: give --token SECRET (clients send it as their key) or --tokens-file FILE"
            )
        }
        if upstreamKey != nil, !guarded {
            throw ProxyError(
                "--key-from-env needs --token SECRET or --token-file PATH (clients send it as their key), or --tokens-file FILE: without one, any program or web page on this machine could spend the key"
            )
        }
        if token != nil, upstreamKey == nil {
            throw ProxyError(
                "--token needs the key the proxy sends upstream: set OPENAI_API_KEY and give --key-from-env")
        }
        if users != nil, upstreamKey == nil {
            throw ProxyError(
                "--tokens-file needs the key the proxy sends upstream: set OPENAI_API_KEY and give --key-from-env")
        }
        if let defaultBudget {
            guard users != nil else { throw ProxyError("--budget-per-user needs --tokens-file (a budget is a user's)") }
            guard defaultBudget.isFinite, defaultBudget >= 0 else {
                throw ProxyError("--budget-per-user \(defaultBudget): not an amount of US dollars (example: 5.00)")
            }
        }
        guard (0...65535).contains(port) else { throw ProxyError("--listen: port \(port) is out of range") }
        guard idleTimeout > .zero else {
            throw ProxyError("the idle timeout must be more than 0 s (it is \(idleTimeout))")
        }
    }
}

/// A proxy that cannot start, with what to change.
public struct ProxyError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ProxyError {
    /// Both a token for everyone and a file of users' tokens.
    public static let tokensAndToken = ProxyError(
        "give --tokens-file or --token/--token-file, not both: --tokens-file gives each user a token of its own")
}
