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
        let answer: @Sendable (String) -> LoopbackServer.Route = { server in
            { _ in
                .sse(Fixtures.textStream(id: "resp_\(server)", text: "answer from \(server)", previousResponseID: nil))
            }
        }
        try await LoopbackServer.withTwo(answer("A"), answer("B")) { first, second in
            let credentials = { (harness: ConsoleHarness) in harness.home.appendingPathComponent("credentials.yaml") }
            let prepare: (inout ConsoleHarness) throws -> Void = { harness in
                try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
                try "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    model: beta-model\n"
                    .write(to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
                try "beta: sk-beta-console-0000\n".write(to: credentials(harness), atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o600], ofItemAtPath: credentials(harness).path)
            }
            try await ConsoleHarness.withConsole(on: first, prepare: prepare) { tmux, harness in
                try await tmux.send("hello", until: "answer from A")
                try await tmux.complete("/provider be", to: "/provider beta")
                try tmux.press("Enter")
                try await tmux.waitFor("Provider beta: \(second.baseURL), model beta-model; a new conversation starts.")
                try await tmux.send("hello again", until: "answer from B")
                let request = try #require(second.requests.last)
                #expect(request.header("authorization") == "Bearer sk-beta-console-0000")
                #expect(request.jsonBody?["model"] as? String == "beta-model")
                #expect(request.jsonBody?["previous_response_id"] == nil, "a new conversation on the other server")
                #expect(first.requests.count == 1)
                try await tmux.send("/provider", until: "Provider beta: \(second.baseURL) (/provider NAME switches")
                try await tmux.send("/provider nowhere", until: "error: no provider nowhere (known: default, beta")
                try await tmux.quit()
                // The key reached neither the history nor the inspector (only credentials.yaml holds it).
                try FileManager.default.removeItem(at: credentials(harness))
                #expect(try !harness.dataDirectoryContains("sk-beta-console-0000"))
            }
        }
    }

    /// A preset meant for another provider takes the console there (`/preset use`), `/preset save` keeps the
    /// provider in use, and `/stores list --provider NAME` looks at another provider's stores without leaving.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aPresetTakesTheConsoleToItsProvider() async throws {
        try await LoopbackServer.withTwo(ConsoleRoutes.provider("first"), ConsoleRoutes.provider("second")) {
            first, second in
            let prepare: (inout ConsoleHarness) throws -> Void = { harness in
                let presets = harness.home.appendingPathComponent("presets")
                try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
                try
                    "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    key_env: BETA_KEY\n    model: beta-model\n"
                    .write(to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
                try "version: 1\nname: on-beta\nprovider: beta\ntemperature: 0.3\n"
                    .write(to: presets.appendingPathComponent("on-beta.yaml"), atomically: true, encoding: .utf8)
                harness.extraVariables = ["BETA_KEY": "sk-beta-preset-0000"]
            }
            try await ConsoleHarness.withConsole(on: first, prepare: prepare) { tmux, harness in
                try await tmux.send(
                    "/preset use on-beta", until: "Provider beta: \(second.baseURL); a new conversation starts.")
                try await tmux.waitFor("Using preset on-beta")
                try await tmux.send("hello", until: "answer from second")
                let request = try #require(second.requests.last)
                #expect(request.header("authorization") == "Bearer sk-beta-preset-0000")
                #expect(request.jsonBody?["temperature"] as? Double == 0.3)
                #expect(first.requests.isEmpty)
                try await tmux.send("/stores list --provider default", until: "vs_first")
                #expect(first.requests.last?.header("authorization") == "Bearer \(consoleTestKey)")
                try await tmux.send(
                    "/provider", until: "Provider beta: \(second.baseURL) (/provider NAME switches",
                    timeout: .seconds(10))
                try await tmux.send("/preset save mine", until: "Saved preset mine")
                let saved = try String(
                    contentsOf: harness.home.appendingPathComponent("presets/mine.yaml"), encoding: .utf8)
                #expect(saved.contains("provider: beta"), "\(saved)")
                try await tmux.quit()
            }
        }
    }
}
