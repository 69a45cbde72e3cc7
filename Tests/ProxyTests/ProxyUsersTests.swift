import Foundation
import Proxy
import Testing

/// `--tokens-file`: a team's users, `NAME: TOKEN [budget=USD]` a line. What it accepts, each mistake named by
/// `FILE:LINE` without quoting a token, the file's mode, and which user a token is.
@Suite("recording proxy: the tokens file")
struct ProxyUsersTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-users-\(UUID().uuidString)")

    /// Writes `text` as a tokens file of mode `mode` and returns its path.
    func file(_ text: String, mode: Int = 0o600) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func usersTheirTokensAndBudgets() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let name64 = String(repeating: "n", count: 64)
        let path = try file(
            """
            # the team
            alice: s3cr3t-alice budget=5.00

              bob@example.com:s3cr3t-bob\r
            \(name64): s3cr3t-long budget=0
            """)
        let users = try ProxyUsers.read(fromFile: path).users
        #expect(
            users == [
                .init(name: "alice", token: "s3cr3t-alice", budget: 5),
                .init(name: "bob@example.com", token: "s3cr3t-bob", budget: nil),
                .init(name: name64, token: "s3cr3t-long", budget: 0),
            ])
        let all = ProxyUsers(users)
        #expect(all.user(presenting: "s3cr3t-bob")?.name == "bob@example.com")
        #expect(all.user(presenting: "s3cr3t-alice")?.name == "alice")
        for wrong in ["", "s3cr3t-", "s3cr3t-alicE", "s3cr3t-alice ", "s3cr3t-alice-alice", "s3cr3t-b"] {
            #expect(all.user(presenting: wrong) == nil, "\(wrong)")
        }
    }

    static let mistakes: [(text: String, line: Int, reason: String)] = [
        ("alice s3cr3t-a\n", 1, "expected NAME: TOKEN (a line without ':')"),
        ("# team\n\nalice: s3cr3t-a\n: s3cr3t-b\n", 4, "the name is empty (expected NAME: TOKEN)"),
        ("alice:   \n", 1, "the token of alice is empty (expected NAME: TOKEN)"),
        ("alice: s3cr3t-a\nbob: s3cr3t-b\nalice: s3cr3t-c\n", 3, "alice is named again (first on line 1)"),
        ("alice: s3cr3t-a\n\nbob: s3cr3t-a\n", 3, "the token of line 1 is given again"),
        ("al ice: s3cr3t-a\n", 1, "a name is 1 to 64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'"),
        ("alice/s3cr3t: x\n", 1, "a name is 1 to 64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'"),
        ("élise: s3cr3t-a\n", 1, "a name is 1 to 64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'"),
        (
            String(repeating: "n", count: 65) + ": s3cr3t-a\n", 1,
            "a name is 1 to 64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'"
        ),
        (
            "alice: s3cr3t-a budget=lots\n", 1,
            "the budget of alice is not an amount of US dollars (for example budget=5.00)"
        ),
        (
            "alice: s3cr3t-a budget=-1\n", 1,
            "the budget of alice is not an amount of US dollars (for example budget=5.00)"
        ),
        (
            "alice: s3cr3t-a s3cr3t-b\n", 1,
            "after the token of alice, only budget=USD (for example budget=5.00) may follow"
        ),
        (
            "alice: s3cr3t-a budget=1 budget=2\n", 1,
            "after the token of alice, only budget=USD (for example budget=5.00) may follow"
        ),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeNamesItsFileAndLineAndNoToken(_ index: Int) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (text, line, reason) = Self.mistakes[index]
        let path = try file(text)
        let error = #expect(throws: ProxyError.self) { try ProxyUsers.read(fromFile: path) }
        #expect(error?.message == "--tokens-file \(path):\(line): \(reason)")
        #expect(error?.message.contains("s3cr3t") == false, "a token is never quoted")
    }

    @Test func theFileMustBeTheUsersAloneAndHoldSomeone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let shared = try file("alice: s3cr3t-a\n", mode: 0o644)
        let error = #expect(throws: ProxyError.self) { try ProxyUsers.read(fromFile: shared) }
        #expect(
            error?.message
                == "--tokens-file \(shared): its mode is 0644, so other users can read it: chmod 600 \(shared)")
        let group = try file("alice: s3cr3t-a\n", mode: 0o640)
        #expect(throws: ProxyError.self) { try ProxyUsers.read(fromFile: group) }
        #expect(try ProxyUsers.read(fromFile: file("alice: s3cr3t-a\n", mode: 0o400)).users.count == 1)

        let empty = try file("# nobody yet\n\n")
        let nobody = #expect(throws: ProxyError.self) { try ProxyUsers.read(fromFile: empty) }
        #expect(nobody?.message == "--tokens-file \(empty): no user (expected lines NAME: TOKEN)")
        let folder = #expect(throws: ProxyError.self) { try ProxyUsers.read(fromFile: directory.path) }
        #expect(folder?.message == "--tokens-file \(directory.path): not a regular file")
    }

    @Test func itIsOneTokenOrTheOtherAndItsBudgetsNeedIt() throws {
        let users = ProxyUsers([.init(name: "alice", token: "s3cr3t-a")])
        let upstream = "https://api.openai.com/v1"
        let both = ProxyConfiguration(upstream: upstream, token: "t", upstreamKey: "k", users: users)
        let error = #expect(throws: ProxyError.self) { try both.validate() }
        #expect(error?.message.hasPrefix("give --tokens-file or --token/--token-file, not both") == true)
        let noKey = ProxyConfiguration(upstream: upstream, users: users)
        let keyless = #expect(throws: ProxyError.self) { try noKey.validate() }
        #expect(keyless?.message.hasPrefix("--tokens-file needs the key the proxy sends upstream") == true)
        let budgetAlone = ProxyConfiguration(upstream: upstream, defaultBudget: 5)
        let alone = #expect(throws: ProxyError.self) { try budgetAlone.validate() }
        #expect(alone?.message == "--budget-per-user needs --tokens-file (a budget is a user's)")
        // A tokens file guards a proxy listening beyond loopback as a token does.
        try ProxyConfiguration(host: "0.0.0.0", upstream: upstream, upstreamKey: "k", users: users).validate()
        // Budgets with no store to read spending from: the server does not start.
        let budgeted = ProxyConfiguration(upstream: upstream, upstreamKey: "k", users: users, defaultBudget: 1)
        let server = ProxyServer(configuration: budgeted, observer: nil)
        let storeless = #expect(throws: ProxyError.self) { try server.validate() }
        #expect(storeless?.message.hasPrefix("budgets are read from the inspector's recorded costs") == true)
    }
}
