import Foundation
import ResponsesAPI
import Spawning
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `openresponses proxy --tokens-file` as a team runs it: two users through the built binary, each exchange
/// recorded with its user (`inspect list --user`, `inspect stats --by user`), `/health` for the load balancer,
/// and the flags it refuses.
@Suite("openresponses proxy --tokens-file")
struct ProxyUsersCommandTests {
    static let priced =
        #"{"id":"resp_team","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[],"usage":{"input_tokens":1000000,"output_tokens":0,"total_tokens":1000000}}"#

    /// A folder of its own for the tokens file, apart from the data directory (searched for the tokens).
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("or-team-\(UUID().uuidString)")

    /// Writes the team's tokens file (mode `mode`).
    func tokensFile(mode: Int = 0o600) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("team.tokens").path
        let text = "# the team\nalice: s3cr3t-alice-0030 budget=5.00\nbob: s3cr3t-bob-0031\n"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Once with each engine: with a team store the proxy pushes what it records and `inspect` reads it there.
    @Test(arguments: InspectorEngine.all) func twoUsersAreRecordedAndListedByName(engine: InspectorEngine)
        async throws
    {
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        defer { Task { await upstream.stop() } }
        var configured = ConsoleHarness(server: upstream)
        configured.extraVariables = try engine.variables()
        let harness = configured
        defer { harness.remove() }
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try tokensFile()
        let proxy = try RunningChild(
            ChildProcess(
                Subprocess.openresponsesBinary,
                ["proxy", "--listen", "127.0.0.1:0", "--tokens-file", file, "--key-from-env", "--health"],
                environment: harness.variables))
        let said = Said()
        let reading = Task { for await chunk in proxy.output { said.append(chunk) } }
        try await Deadline.poll("the proxy's banner") { said.text.contains("Ctrl-C stops.") }
        let banner = said.text
        let port = try #require(banner.firstMatch(of: #/Proxy on http://127\.0\.0\.1:(\d+)/v1 /#).map { String($0.1) })
        #expect(banner.contains("2 users from the tokens file, 1 with a daily budget (UTC)."), "\(banner)")
        func curl(_ path: String, _ arguments: [String]) async throws -> String {
            try await Subprocess.run(
                "/usr/bin/curl",
                ["-sS", "-o", "/dev/null", "-w", "%{http_code}"] + arguments + ["http://127.0.0.1:\(port)\(path)"],
                environment: ["PATH": "/usr/bin:/bin"]
            ).stdout
        }
        let body = ["--data-binary", #"{"model":"gpt-5.1","input":"hi"}"#, "-H", "Content-Type: application/json"]
        #expect(try await curl("/v1/responses", ["-H", "Authorization: Bearer s3cr3t-alice-0030"] + body) == "200")
        #expect(try await curl("/v1/responses", ["-H", "Authorization: Bearer s3cr3t-bob-0031"] + body) == "200")
        #expect(try await curl("/v1/responses", ["-H", "Authorization: Bearer s3cr3t-bob-0031"] + body) == "200")
        #expect(try await curl("/health", []) == "200")
        #expect(upstream.requests.count == 3)
        #expect(upstream.requests.allSatisfy { $0.header("authorization") == "Bearer \(consoleTestKey)" })

        kill(proxy.pid, SIGINT)
        try await Deadline.poll("the proxy to stop") { said.text.contains("Proxy stopped.") }
        // Generous: with a team store it pushes what it recorded before it ends, on a machine the whole suite loads.
        #expect(await proxy.stop(grace: .seconds(30)) == .exited(0), "\(said.text)")
        await reading.value
        if let url = harness.extraVariables["OPENRESPONSES_INSPECTOR_URL"] {
            // What it recorded last went before it ended, with no other command to push it.
            #expect(try InspectorEngine.psql(url, "SELECT count(*) FROM exchange").hasPrefix("3"), "\(said.text)")
        }

        // The console's own exchange in the same store has no user.
        let ask = try await harness.run(["ask", "--no-stream", "--model", "gpt-5.1", "hello"])
        #expect(ask.status == 0, "\(ask.stderr)")
        let console = try await harness.run(["inspect", "list", "--source", "console", "--json"])
        let own = try JSONValue.parse(Array(console.stdout.utf8)).arrayValue ?? []
        #expect(own.count == 1 && own.first?["user"] == .null, "\(console.stdout)")

        let alice = try await harness.run(["inspect", "list", "--user", "alice", "--json"])
        let rows = try JSONValue.parse(Array(alice.stdout.utf8)).arrayValue ?? []
        #expect(rows.count == 1 && rows.first?["user"] == "alice", "\(alice.stdout)\(alice.stderr)")
        let stats = try await harness.run(["inspect", "stats", "--by", "user", "--json"])
        let groups = try JSONValue.parse(Array(stats.stdout.utf8)).arrayValue ?? []
        #expect(
            groups.map {
                "\($0["key"]?.stringValue ?? "?") \($0["requests"]?.intValue ?? 0) \($0["cost_usd"]?.doubleValue ?? 0)"
            }
                == ["bob 2 2.5", "(none) 1 1.25", "alice 1 1.25"], "\(stats.stdout)")
        let table = try await harness.run(["inspect", "list"])
        let header = try #require(table.stdout.split(separator: "\n").first)
        #expect(header.contains("USER") && header.contains("CLIENT"), "\(table.stdout)")
        #expect(
            table.stdout.split(separator: "\n").dropFirst().map { $0.contains(" bob ") } == [false, true, true, false])
        for token in ["s3cr3t-alice-0030", "s3cr3t-bob-0031"] {
            #expect(try !harness.dataDirectoryContains(token), "\(token)")
            if let url = harness.extraVariables["OPENRESPONSES_INSPECTOR_URL"] {
                #expect(try !InspectorEngine.teamStore(url, contains: token), "\(token) in the team store")
            }
        }
    }

    @Test func aSharedFileOrTwoKindsOfTokenDoNotStart() async throws {
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        defer { Task { await upstream.stop() } }
        let harness = ConsoleHarness(server: upstream)
        defer { harness.remove() }
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try tokensFile(mode: 0o644)
        let shared = try await harness.run([
            "proxy", "--listen", "127.0.0.1:0", "--tokens-file", file, "--key-from-env",
        ])
        #expect(shared.status == 2)
        #expect(
            shared.stderr.contains("--tokens-file \(file): its mode is 0644, so other users can read it"),
            "\(shared.stderr)")
        let both = try await harness.run([
            "proxy", "--listen", "127.0.0.1:0", "--token", "t", "--tokens-file", file, "--key-from-env",
        ])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give --tokens-file or --token/--token-file, not both"), "\(both.stderr)")
        #expect(upstream.requests.isEmpty)
    }
}

/// What a child printed so far, read by a task while the test waits for a line.
final class Said: Sendable {
    private let bytes = Mutex<[UInt8]>([])

    func append(_ chunk: [UInt8]) { bytes.withLock { $0 += chunk } }
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
}
