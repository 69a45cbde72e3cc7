import HTTPTypes
import Synchronization

/// Who may use the proxy, decided from a request's head before anything is read or forwarded. A program
/// on this machine names the address the proxy listens on in its `Host` and sends no `Origin`; a web page
/// in the user's browser always sends an `Origin` with a cross-site request, and a DNS-rebinding page,
/// though its requests reach 127.0.0.1, names its own host. Both are refused (403), so no page can spend the
/// key the proxy holds or plant exchanges in the inspector.
final class ProxyGate: Sendable {
    /// Why a request was refused: the status, the error's `code`, and a message for the client and the
    /// inspector.
    struct Refusal: Sendable, Equatable {
        var status: Int
        var code: String
        var reason: String
        /// The error's `type`: `proxy_error`, or `budget_exceeded` for a user over budget.
        var type = "proxy_error"
        /// Seconds until asking again may succeed (a budget renews at midnight UTC): sent as `Retry-After`,
        /// with `x-should-retry: false` so that the official SDKs do not retry in vain meanwhile.
        var retryAfter: Int? = nil
    }

    /// The listening address as given (`127.0.0.1`, `localhost`, `::1`).
    let host: String
    /// The host names a request may give (lowercased; IP literals in their canonical text); nil when the
    /// proxy listens on every interface (0.0.0.0, ::), where any name of the machine reaches it and the
    /// token, required there, guards it.
    let names: Set<String>?
    /// The port listened on, once bound (the configuration's may be 0).
    private let boundPort: Atomic<Int>

    init(host: String, port: Int) {
        self.host = host
        boundPort = Atomic(port)
        let addresses = IPAddress.resolve(host)
        if !addresses.isEmpty, addresses.allSatisfy(\.isUnspecified) {
            names = nil
            return
        }
        var names = Set([Self.canonical(host)])
        names.formUnion(addresses.map(\.description))
        // The loopback names of one machine are one another's: a client may say localhost for 127.0.0.1.
        if !addresses.isEmpty, addresses.allSatisfy(\.isLoopback) { names.insert("localhost") }
        self.names = names
    }

    /// The port listened on.
    var port: Int { boundPort.load(ordering: .relaxed) }

    /// Once the socket is bound: the port the system chose when the configuration asked for 0.
    func bind(port: Int) {
        boundPort.store(port, ordering: .relaxed)
    }

    /// `HOST:PORT` as a client should write it (IPv6 in brackets).
    var authority: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Why the request with this `Host` (`authority`) and these other headers is refused; nil lets it in.
    func check(authority: String?, headers: HTTPFields) -> Refusal? {
        if let origin = headers[.origin] {
            return Refusal(
                status: 403, code: "forbidden_origin",
                reason:
                    "a request from a web page (Origin: \(origin)) is not served; only programs on this machine may use the proxy"
            )
        }
        // A browser's request without an Origin (an image, a script, a navigation) still says where it came
        // from: its fetch metadata or its Referer. Programs on this machine send neither.
        for name in Self.browserFields where headers[name] != nil {
            return Refusal(
                status: 403, code: "forbidden_origin",
                reason:
                    "a request from a web browser (\(name.rawName): \(headers[name] ?? "")) is not served; only programs on this machine may use the proxy"
            )
        }
        guard let authority, !authority.isEmpty else {
            return Refusal(status: 403, code: "forbidden_host", reason: "a request without a Host header is not served")
        }
        if headers[values: Self.hostField].count > 0 {
            return Refusal(
                status: 403, code: "forbidden_host", reason: "a request with more than one Host header is not served")
        }
        guard let (name, port) = Self.split(authority), port == self.port, names?.contains(name) ?? true else {
            return Refusal(
                status: 403, code: "forbidden_host",
                reason: "Host: \(authority) is not the address the proxy listens on (\(self.authority))")
        }
        return nil
    }

    /// What only browsers send: fetch metadata and the page a request came from.
    static let browserFields: [HTTPField.Name] = ["Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Referer"].map {
        HTTPField.Name($0)!
    }

    /// `Host`: HTTPTypes moves a request's (first) Host into its authority; a second one stays a field.
    private static let hostField = HTTPField.Name("Host")!

    /// The host and port of `HOST:PORT`, `[V6]:PORT` or `HOST` (port 80); nil when it is not one of those.
    static func split(_ authority: String) -> (String, Int)? {
        var host = Substring(authority)
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            host = authority[..<colon]
            port = number
        }
        guard !host.isEmpty, (0...65535).contains(port) else { return nil }
        return (canonical(String(host)), port)
    }

    /// A host as compared: an IP literal's canonical text, else the name lowercased without a final dot.
    static func canonical(_ host: String) -> String {
        if let address = IPAddress(literal: host) { return address.description }
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}
