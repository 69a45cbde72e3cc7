import Foundation

/// The users of a proxy shared by a team (`--tokens-file`): each a name, the token its clients send as their
/// key, and an optional daily budget. A request's token is compared with every user's, in constant time, and
/// the user it matches is recorded with the exchange; a token that matches none is refused (401).
public struct ProxyUsers: Sendable {
    public struct User: Sendable, Hashable {
        /// `[A-Za-z0-9._@-]`, 1 to 64 characters: what the inspector records and `inspect list --user` finds.
        public var name: String
        public var token: String
        /// US dollars per UTC day (`budget=5.00`); nil takes the proxy's default (`--budget-per-user`).
        public var budget: Double?

        public init(name: String, token: String, budget: Double? = nil) {
            self.name = name
            self.token = token
            self.budget = budget
        }
    }

    public var users: [User]

    public init(_ users: [User]) {
        self.users = users
    }

    /// The user whose token `presented` is. Every user's token is compared, whatever matched before, each
    /// comparison in a time that depends only on `presented`'s length (`ProxyToken.matches`).
    public func user(presenting presented: String) -> User? {
        var found: User?
        for user in users where ProxyToken.matches(presented, user.token) && found == nil {
            found = user
        }
        return found
    }

    /// The most a tokens file may hold.
    static let limit = 1 << 20

    /// Reads `--tokens-file`: lines `NAME: TOKEN` or `NAME: TOKEN budget=USD`; blank lines and lines
    /// beginning with `#` are skipped. The file must be the user's alone (mode 0600 or stricter, as
    /// `--token-file`). Every error names `PATH:LINE` and never quotes a token.
    public static func read(fromFile path: String) throws(ProxyError) -> ProxyUsers {
        let bytes = try ProxyToken.privateFile(path, flag: "--tokens-file", limit: limit, what: "a tokens file")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ProxyError("--tokens-file \(path): not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// The users of a tokens file's text; errors name `path` and the line.
    static func parse(_ text: String, path: String) throws(ProxyError) -> ProxyUsers {
        var users: [User] = []
        var lineOfName: [String: Int] = [:]
        var lineOfToken: [String: Int] = [:]
        // A CR LF is one Character: a file written on Windows has its lines too.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func failure(_ reason: String) -> ProxyError { ProxyError("--tokens-file \(path):\(number): \(reason)") }
            guard let colon = line.firstIndex(of: ":") else {
                throw failure("expected NAME: TOKEN (a line without ':')")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let words = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace)
            guard !name.isEmpty else { throw failure("the name is empty (expected NAME: TOKEN)") }
            guard name.count <= 64, name.unicodeScalars.allSatisfy(Self.nameCharacters.contains) else {
                throw failure("a name is 1 to 64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'")
            }
            guard let token = words.first.map(String.init) else {
                throw failure("the token of \(name) is empty (expected NAME: TOKEN)")
            }
            var budget: Double?
            for word in words.dropFirst() {
                guard word.hasPrefix("budget="), budget == nil else {
                    throw failure("after the token of \(name), only budget=USD (for example budget=5.00) may follow")
                }
                guard let value = Double(word.dropFirst("budget=".count)), value.isFinite, value >= 0 else {
                    throw failure("the budget of \(name) is not an amount of US dollars (for example budget=5.00)")
                }
                budget = value
            }
            if let first = lineOfName[name] { throw failure("\(name) is named again (first on line \(first))") }
            if let first = lineOfToken[token] { throw failure("the token of line \(first) is given again") }
            lineOfName[name] = number
            lineOfToken[token] = number
            users.append(User(name: name, token: token, budget: budget))
        }
        guard !users.isEmpty else { throw ProxyError("--tokens-file \(path): no user (expected lines NAME: TOKEN)") }
        return ProxyUsers(users)
    }

    /// What a user's name may be made of.
    static let nameCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._@-")
}
