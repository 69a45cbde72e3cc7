import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Which server a command talks to when nothing is typed at it: `--provider` over a preset's `provider:`
/// over the config file's `provider:`; a name nobody configured is an error at the line that writes it;
/// `files` and `stores` take `--provider` like every other command that talks to a server.
@Suite("choosing a provider")
struct ProviderSelectionTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-psel-\(UUID().uuidString)", isDirectory: true)

    func run(_ arguments: [String], base: String) async throws -> Subprocess.Result {
        let environment = [
            "OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin",
            "OPENAI_BASE_URL": base, "OPENAI_API_KEY": "sk-default-secret-0000", "BETA_KEY": "sk-beta-secret-0000",
        ]
        return try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
    }

    func write(_ name: String, _ text: String) throws {
        let url = home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Two providers' servers (`ConsoleRoutes.provider`), `first` and `second`, for `body`.
    static func withFirstAndSecond(_ body: (LoopbackServer, LoopbackServer) async throws -> Void) async throws {
        try await LoopbackServer.withTwo(ConsoleRoutes.provider("first"), ConsoleRoutes.provider("second"), body)
    }

    @Test func aPresetOrTheConfigFileChoosesTheProviderAndTheFlagWins() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try await Self.withFirstAndSecond { first, second in
            try write(
                "config.yaml",
                """
                version: 1
                providers:
                  beta:
                    base_url: \(second.baseURL)
                    key_env: BETA_KEY
                    model: beta-model
                """)
            try write("presets/on-beta.yaml", "version: 1\nname: on-beta\nprovider: beta\ntemperature: 0.2\n")

            let viaPreset = try await run(["ask", "--preset", "on-beta", "hello"], base: first.baseURL)
            #expect(viaPreset.status == 0, "\(viaPreset.stderr)")
            #expect(viaPreset.stdout.contains("answer from second"))
            let request = try #require(second.requests.last)
            #expect(request.header("authorization") == "Bearer sk-beta-secret-0000")
            #expect(
                request.jsonBody?["model"] as? String == "beta-model", "the preset's provider's model is the default")
            #expect(request.jsonBody?["temperature"] as? Double == 0.2)

            let flagWins = try await run(
                ["ask", "--preset", "on-beta", "--provider", "default", "hello"], base: first.baseURL)
            #expect(flagWins.stdout.contains("answer from first"), "\(flagWins.stderr)")
            #expect(first.requests.last?.header("authorization") == "Bearer sk-default-secret-0000")

            // The config file's provider: is the one used when no preset names one.
            try write(
                "config.yaml",
                """
                version: 1
                provider: beta
                providers:
                  beta:
                    base_url: \(second.baseURL)
                    key_env: BETA_KEY
                """)
            let viaConfig = try await run(["ask", "hello"], base: first.baseURL)
            #expect(viaConfig.stdout.contains("answer from second"), "\(viaConfig.stderr)")

            // The same preset's provider shows in `presets show`, and in the inspector's provider column.
            let shown = try await run(["presets", "show", "on-beta"], base: first.baseURL)
            #expect(shown.stdout.contains("provider: beta"), "\(shown.stdout)")
            let onBeta = try JSONValue.parse(
                Array(
                    try await run(["inspect", "list", "--json", "--provider", "beta"], base: first.baseURL).stdout.utf8)
            )
            #expect(onBeta.arrayValue?.count == 2)
        }
    }

    @Test func aProviderNobodyConfiguredIsAnErrorAtItsLine() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try write("config.yaml", "version: 1\nproviders:\n  beta:\n    base_url: http://127.0.0.1:9/v1\n")
        try write("presets/lost.yaml", "version: 1\nname: lost\n# the server it was tuned on\nprovider: betta\n")
        let result = try await run(["ask", "--preset", "lost", "hello"], base: "http://127.0.0.1:9/v1")
        #expect(result.status == 2)
        let path = home.appendingPathComponent("presets/lost.yaml").path
        #expect(
            result.stderr.contains("error: \(path):4:11: provider: 'betta' is not a provider (known: default, beta;"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Error"), "one clear message, no stack of wrappers")

        try write(
            "config.yaml", "version: 1\nprovider: gamma\nproviders:\n  beta:\n    base_url: http://127.0.0.1:9/v1\n")
        let fromConfig = try await run(["ask", "hello"], base: "http://127.0.0.1:9/v1")
        #expect(fromConfig.status == 2)
        #expect(
            fromConfig.stderr.contains("config.yaml:2:11: provider: 'gamma' is not a provider"), "\(fromConfig.stderr)")
    }

    @Test func filesAndStoresTakeTheProviderFlag() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try await Self.withFirstAndSecond { first, second in
            try write(
                "config.yaml",
                "version: 1\nproviders:\n  beta:\n    base_url: \(second.baseURL)\n    key_env: BETA_KEY\n")
            let files = try await run(["files", "list", "--provider", "beta"], base: first.baseURL)
            #expect(files.status == 0, "\(files.stderr)")
            #expect(files.stdout.contains("file-second") && !files.stdout.contains("file-first"))
            #expect(second.requests.last?.header("authorization") == "Bearer sk-beta-secret-0000")
            let stores = try await run(["stores", "list", "--provider", "beta"], base: first.baseURL)
            #expect(stores.stdout.contains("vs_second"), "\(stores.stderr)")
            let here = try await run(["stores", "list"], base: first.baseURL)
            #expect(here.stdout.contains("vs_first"), "\(here.stderr)")
            #expect(first.requests.allSatisfy { $0.header("authorization") == "Bearer sk-default-secret-0000" })
            let unknown = try await run(["files", "list", "--provider", "nowhere"], base: first.baseURL)
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("error: no provider nowhere (known: default, beta"), "\(unknown.stderr)")
        }
    }
}
