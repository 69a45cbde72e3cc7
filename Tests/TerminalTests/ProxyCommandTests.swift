import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses proxy` and `inspect watch` as a user runs them, in real terminals: the proxy says where
/// it listens, a client's request through it is recorded, and `inspect watch` in another terminal prints the
/// exchange as it starts and ends; Ctrl-C stops both.
@Suite("openresponses proxy and inspect watch")
struct ProxyCommandTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theProxyRecordsAClientAndWatchFollowsIt() async throws {
        let frames = Fixtures.textStream(id: "resp_cmd", text: "through the proxy", previousResponseID: nil)
        let upstream = try await LoopbackServer.start { _ in .sse(frames, pause: .milliseconds(150)) }
        defer { Task { await upstream.stop() } }
        let harness = ConsoleHarness(server: upstream)
        defer { harness.remove() }
        let env = harness.variables.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")

        let proxy = try TmuxSession()
        defer { proxy.kill() }
        try await proxy.waitFor("$ ", timeout: .seconds(60))
        try proxy.type("env \(env) \(Subprocess.openresponsesBinary) proxy --listen 127.0.0.1:0")
        let banner = try await proxy.waitFor("Ctrl-C stops.", timeout: .seconds(60))
        let port = try #require(
            banner.firstMatch(of: #/Proxy on http://127\.0\.0\.1:(\d+)/v1 -> /#).map { String($0.1) })
        #expect(banner.contains("-> \(upstream.baseURL), recording into \(harness.home.path)/inspector.sqlite."))

        let watch = try TmuxSession()
        defer { watch.kill() }
        try await watch.waitFor("$ ", timeout: .seconds(60))
        try watch.type("env \(env) \(Subprocess.openresponsesBinary) inspect watch")
        try await watch.waitFor("(Ctrl-C stops).", timeout: .seconds(60))

        let client = try await Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-N", "-A", "watch-test/2.0", "-H", "Authorization: Bearer sk-cmd-secret-0007",
                "--data-binary", #"{"model":"test-model","stream":true}"#, "http://127.0.0.1:\(port)/v1/responses",
            ],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(client.stdout == frames.joined())
        try await watch.waitFor("→ 1 ")
        let screen = try await watch.waitFor("← 1 ")
        #expect(screen.contains("POST /v1/responses test-model [proxy: watch-test/2.0]"), "\(screen)")
        #expect(screen.contains("POST /v1/responses completed 200 test-model"), "\(screen)")
        try watch.press("C-c")
        try await watch.waitFor("\n$ ")
        try proxy.press("C-c")
        try await proxy.waitFor("Proxy stopped.\n$ ")

        let listed = try await harness.run(["inspect", "list", "--source", "proxy", "--client", "watch-test", "--json"])
        let rows = try JSONValue.parse(Array(listed.stdout.utf8)).arrayValue ?? []
        #expect(rows.count == 1 && rows.first?["client"] == "watch-test/2.0", "\(listed.stdout)\(listed.stderr)")
        #expect(try !harness.dataDirectoryContains("sk-cmd-secret-0007"))
    }
}
