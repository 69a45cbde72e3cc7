import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `eval --provider`: columns on two providers' servers, and a preset's own `provider:` honoured.
@Suite("eval across providers")
struct EvalProviderTests {
    /// Each server says which it is.
    static func route(_ server: String) -> LoopbackServer.Route {
        answeringRoute { _, _ in "answer from \(server)" }
    }

    @Test func eachColumnGoesToItsProvider() async throws {
        let first = try await LoopbackServer.start(route: Self.route("first"))
        let second = try await LoopbackServer.start(route: Self.route("second"))
        var harness = ConsoleHarness(server: first)
        harness.extraVariables = ["BETA_KEY": "sk-beta-secret-0000"]
        defer { harness.remove() }
        let files: [String: String] = [
            "config.yaml": "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    key_env: BETA_KEY\n",
            "presets/on-beta.yaml": "version: 1\nprovider: beta\n",
            "presets/plain.yaml": "version: 1\n",
            "suite.yaml": "version: 1\ncases:\n  - id: which\n    input: hi\n    expect: [{contains: first}]\n",
        ]
        for (name, text) in files {
            let url = harness.home.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let suite = harness.home.appendingPathComponent("suite.yaml").path
        // --provider: one column each; only the first server's answer passes.
        let flags = try await harness.run([
            "eval", suite, "--provider", "default", "--provider", "beta", "--json",
        ])
        #expect(flags.status == 1, "\(flags.stderr)")
        let cases = try JSONValue.parse(flags.stdout)["cases"]?.arrayValue ?? []
        #expect(cases.map { $0["column"]?.stringValue ?? "" } == ["provider=default", "provider=beta"])
        #expect(cases.map { $0["passed"]?.boolValue ?? true } == [true, false])
        #expect(first.requests.count == 1 && second.requests.count == 1)
        // The second server got its own key, never the default's.
        #expect(second.requests.first?.headers.contains { $0.1 == "Bearer sk-beta-secret-0000" } == true)

        // A preset that names a provider runs there, as ask would.
        let presets = try await harness.run(["eval", suite, "--preset", "plain", "--preset", "on-beta", "--json"])
        #expect(presets.status == 1, "\(presets.stderr)")
        let rows = try JSONValue.parse(presets.stdout)["cases"]?.arrayValue ?? []
        #expect(rows.map { $0["passed"]?.boolValue ?? true } == [true, false])
        #expect(first.requests.count == 2 && second.requests.count == 2)
        let list = try await harness.run(["inspect", "list", "--provider", "beta", "--json"])
        #expect(try JSONValue.parse(list.stdout).arrayValue?.count == 2, "\(list.stderr)")
        await first.stop()
        await second.stop()
    }
}
