#if TeamInspector
    import Foundation
    import Inspector
    import ResponsesAPI
    import TeamStore
    import TestSupport
    import Testing

    /// A daily budget over a team: what a user spent through one proxy counts at another (on another machine's
    /// store), read from the team store; another user is unaffected.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamBudgetTests {
        @Test func aUserOverBudgetAtOneProxyIsRefusedAtTheOther() async throws {
            let teamURL = TeamCluster.url(of: try TeamCluster.freshDatabase())
            let counter = Counter()
            // A priced answer: a million input tokens of gpt-4.1-mini, $0.40.
            let upstream = try await LoopbackServer.start { _ in
                .sse(
                    Fixtures.textStream(id: "resp_\(counter.next())", model: "gpt-4.1-mini", text: "priced")
                        .map { $0.replacingOccurrences(of: #""input_tokens":12,"#, with: #""input_tokens":1000000,"#) })
            }
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-budget-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let tokens = root.appendingPathComponent("tokens")
            try "alice: sk-alice-0001 budget=0.10\nbob: sk-bob-0002 budget=0.10\n".write(
                to: tokens, atomically: true, encoding: .utf8)
            _ = chmod(tokens.path, 0o600)
            let environment = [
                "OPENAI_BASE_URL": upstream.baseURL, "OPENAI_API_KEY": "sk-upstream-test",
                "OPENRESPONSES_INSPECTOR_URL": teamURL,
            ]
            let arguments = ["--tokens-file", tokens.path, "--key-from-env"]
            let first = try ProxyProcess(
                home: root.appendingPathComponent("one"), environment: environment, arguments: arguments)
            let second = try ProxyProcess(
                home: root.appendingPathComponent("two"), environment: environment, arguments: arguments)
            defer {
                for proxy in [first, second] where proxy.process.isRunning {
                    kill(proxy.process.processIdentifier, SIGKILL)
                }
            }
            try await first.waitUntilListening()
            try await second.waitUntilListening()

            @Sendable func ask(_ proxy: ProxyProcess, _ token: String) async throws -> (status: String, body: String) {
                let result = try await Subprocess.run(
                    "/usr/bin/curl",
                    [
                        "-sS", "-N", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(token)", "-H",
                        "Content-Type: application/json", "--data-binary", #"{"model":"gpt-4.1-mini","stream":true}"#,
                        "http://127.0.0.1:\(proxy.port)/v1/responses",
                    ], environment: ["PATH": "/usr/bin:/bin"])
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
            }
            #expect(try await ask(first, "sk-alice-0001").status == "200")
            // Once the first proxy has pushed alice's $0.40, the second (which has not served her) refuses her
            // before forwarding anything.
            let address = try TeamStoreAddress(parsing: teamURL, origin: "test")
            try await TeamStore.with(address) { team in
                try await Deadline.poll(within: .seconds(30), every: .milliseconds(200), "alice's spending pushed") {
                    try await team.spent(user: "alice", since: Date(timeIntervalSinceNow: -3600)) > 0.3
                }
            }
            let before = upstream.requests.count
            #expect(try await ask(second, "sk-alice-0001").status == "429")
            #expect(upstream.requests.count == before)
            let refusal = try await ask(second, "sk-alice-0001")
            #expect(refusal.body.contains("budget_exceeded") && refusal.body.contains("alice"), "\(refusal.body)")
            #expect(try await ask(second, "sk-bob-0002").status == "200")
            await first.stop()
            await second.stop()
        }
    }
#endif
