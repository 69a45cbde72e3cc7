import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `/provider` in a real terminal: the console opens on the environment's server, `/provider beta` sends the
/// next turn to the other server with that provider's own key and model, `/provider` alone says which is
/// in use, and Tab completes the names.
@Suite("/provider in the console")
struct ProviderConsoleTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func switchingSendsTheNextTurnToTheOtherServerWithItsOwnKey() async throws {
        let first = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_a", text: "answer from A", previousResponseID: nil))
        }
        let second = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_b", text: "answer from B", previousResponseID: nil))
        }
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let harness = ConsoleHarness(server: first)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        try "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    model: beta-model\n"
            .write(to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let credentials = harness.home.appendingPathComponent("credentials.yaml")
        try "beta: sk-beta-console-0000\n".write(to: credentials, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: credentials.path)

        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("hello")
        try await tmux.waitFor("answer from A")
        try tmux.type("/provider be", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("/provider beta")
        try tmux.press("Enter")
        try await tmux.waitFor("Provider beta: \(second.baseURL), model beta-model; a new conversation starts.")
        try tmux.type("hello again")
        try await tmux.waitFor("answer from B")
        let request = try #require(second.requests.last)
        #expect(request.header("authorization") == "Bearer sk-beta-console-0000")
        #expect(request.jsonBody?["model"] as? String == "beta-model")
        #expect(request.jsonBody?["previous_response_id"] == nil, "a new conversation on the other server")
        #expect(first.requests.count == 1)
        try tmux.type("/provider")
        try await tmux.waitFor("Provider beta: \(second.baseURL) (/provider NAME switches")
        try tmux.type("/provider nowhere")
        try await tmux.waitFor("error: no provider nowhere (known: default, beta")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        // The key reached neither the history nor the inspector (only credentials.yaml holds it).
        try FileManager.default.removeItem(at: credentials)
        #expect(try !harness.dataDirectoryContains("sk-beta-console-0000"))
    }

    /// A preset meant for another provider takes the console there (`/preset use`), `/preset save` keeps the
    /// provider in use, and `/stores list --provider NAME` looks at another provider's stores without leaving.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aPresetTakesTheConsoleToItsProvider() async throws {
        let first = try await LoopbackServer.start(route: ConsoleRoutes.provider("first"))
        let second = try await LoopbackServer.start(route: ConsoleRoutes.provider("second"))
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let harness = ConsoleHarness(server: first)
        defer { harness.remove() }
        let presets = harness.home.appendingPathComponent("presets")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try
            "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    key_env: BETA_KEY\n    model: beta-model\n"
            .write(to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "version: 1\nname: on-beta\nprovider: beta\ntemperature: 0.3\n"
            .write(to: presets.appendingPathComponent("on-beta.yaml"), atomically: true, encoding: .utf8)
        var console = harness
        console.extraVariables = ["BETA_KEY": "sk-beta-preset-0000"]

        let tmux = try await console.startConsole()
        defer { tmux.kill() }
        try tmux.type("/preset use on-beta")
        try await tmux.waitFor("Provider beta: \(second.baseURL); a new conversation starts.")
        try await tmux.waitFor("Using preset on-beta")
        try tmux.type("hello")
        try await tmux.waitFor("answer from second")
        let request = try #require(second.requests.last)
        #expect(request.header("authorization") == "Bearer sk-beta-preset-0000")
        #expect(request.jsonBody?["temperature"] as? Double == 0.3)
        #expect(first.requests.isEmpty)
        try tmux.type("/stores list --provider default")
        try await tmux.waitFor("vs_first")
        #expect(first.requests.last?.header("authorization") == "Bearer \(consoleTestKey)")
        try tmux.type("/provider")
        try await tmux.waitFor("Provider beta: \(second.baseURL) (/provider NAME switches", timeout: .seconds(10))
        try tmux.type("/preset save mine")
        try await tmux.waitFor("Saved preset mine")
        let saved = try String(contentsOf: presets.appendingPathComponent("mine.yaml"), encoding: .utf8)
        #expect(saved.contains("provider: beta"), "\(saved)")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
    }
}
