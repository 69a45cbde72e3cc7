import Foundation
import ResponsesAPI

/// Where a team's inspector is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`,
/// from `inspector.url` in config.yaml or OPENRESPONSES_INSPECTOR_URL (`origin` says which, for errors). Its
/// password is never shown: `description` is the address without it.
public struct TeamStoreAddress: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// Whether the URL itself carried a password (refused where it would be seen: `--to`, config.yaml).
    public var passwordInURL: Bool { password != nil && passwordFromURL }
    var passwordFromURL = false

    /// How the local stores name this destination in what they note as pushed: the address without the
    /// password (a changed password is the same destination).
    public var destination: String { description }

    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// Parses `text`; `origin` names where it came from (`inspector.url in ~/.config/.../config.yaml`).
    public init(parsing text: String, origin: String) throws(TeamStoreError) {
        func refuse(_ why: String) -> TeamStoreError {
            TeamStoreError(
                "\(origin): \(why) (expected postgres://USER:PASSWORD@HOST:PORT/DATABASE)", exitStatus: .usage)
        }
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw refuse("not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("the scheme must be postgres://")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("no host") }
        guard let user = components.user, !user.isEmpty else { throw refuse("no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw refuse("no database (the path)") }
        if let port = components.port, !(1...65535).contains(port) { throw refuse("the port \(port) is out of range") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value ?? "" {
                case "disable": tls = .disable
                case "allow", "prefer": tls = .prefer
                case "require", "verify-ca", "verify-full": tls = .require
                default: throw refuse("sslmode=\(item.value ?? "") is not one of disable, prefer, require")
                }
            default: throw refuse("unknown parameter \(item.name)")
            }
        }
        // Off loopback, TLS is required unless the URL says otherwise: with `prefer`, someone on the path could
        // refuse TLS and ask for the password in clear. Loopback never needs it.
        if !(components.queryItems ?? []).contains(where: { $0.name == "sslmode" }) {
            tls = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) ? .disable : .require
        }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.passwordFromURL = components.password != nil
        self.database = database.removingPercentEncoding ?? database
        self.tls = tls
    }

    /// A copy naming another database on the same server (the tests' fresh database each).
    public func database(_ name: String) -> TeamStoreAddress {
        var copy = self
        copy.database = name
        return copy
    }
}

/// A team store's failure, shown with its address (never its password).
public struct TeamStoreError: UserFacingError, CustomStringConvertible {
    public var message: String
    public var exitStatus: ExitStatus
    public var hint: String?
    /// The database could not be reached (as opposed to refusing what was sent): what is not pushed waits.
    public var unreachable: Bool
    /// The team store holds an exchange under this store's identity and id that is not this store's: another
    /// store has the same identity (a data directory copied to another machine). The pusher takes a new one.
    public var sharedIdentity: Bool

    public init(
        _ message: String, exitStatus: ExitStatus = .apiError, hint: String? = nil, unreachable: Bool = false,
        sharedIdentity: Bool = false
    ) {
        self.sharedIdentity = sharedIdentity
        self.message = message
        self.exitStatus = exitStatus
        self.hint = hint
        self.unreachable = unreachable
    }

    public var userMessage: String { message }
    public var description: String { message }
}
