import Foundation
import Testing
import Workbench

@testable import Console

/// The provider a command chose travels as a value (`AppEnvironment.provider`), never through the process
/// environment: two contexts with different providers live side by side in one process, each with its own
/// server, key and default model, and the process's `OPENRESPONSES_PROVIDER` is neither read nor written.
@Suite("the runtime value")
struct RuntimeValueTests {
    /// A data directory whose config.yaml names two providers (and prefers beta), and an environment on it
    /// with each provider's key and the inspector off.
    static func environment() throws -> (AppEnvironment, URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try """
        version: 1
        provider: beta
        providers:
          alpha:
            base_url: http://127.0.0.1:9/alpha/v1
            key_env: ALPHA_KEY
            model: alpha-model
          beta:
            base_url: http://127.0.0.1:9/beta/v1
            key_env: BETA_KEY
            model: beta-model
        """.write(to: home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let variables = [
            "OPENRESPONSES_HOME": home.path, "HOME": home.path, "OPENRESPONSES_INSPECTOR": "off",
            "OPENAI_API_KEY": "sk-default", "ALPHA_KEY": "sk-alpha", "BETA_KEY": "sk-beta",
        ]
        return (AppEnvironment(variables: variables), home)
    }

    @Test func twoContextsWithDifferentProvidersInOneProcess() async throws {
        let before = getenv("OPENRESPONSES_PROVIDER").map { String(cString: $0) }
        let (base, home) = try Self.environment()
        defer { try? FileManager.default.removeItem(at: home) }
        let alpha = base.choosing(provider: "alpha")
        let beta = base.choosing(provider: "beta")

        let onAlpha = try ConsoleContext(environment: alpha, output: RecordingOutput(), diagnostics: RecordingOutput())
        let onBeta = try ConsoleContext(environment: beta, output: RecordingOutput(), diagnostics: RecordingOutput())
        #expect(onAlpha.providerName == "alpha")
        #expect(onAlpha.configuration.baseURL == "http://127.0.0.1:9/alpha/v1")
        #expect(onAlpha.configuration.apiKey == "sk-alpha")
        #expect(onBeta.providerName == "beta")
        #expect(onBeta.configuration.baseURL == "http://127.0.0.1:9/beta/v1")
        #expect(onBeta.configuration.apiKey == "sk-beta")

        // Each provider's model is the default of the settings stack made from its value.
        let flags = SettingsLayer(label: "command line")
        #expect(try SettingsStack.load(environment: alpha, preset: nil, flags: flags).effective.model == "alpha-model")
        #expect(try SettingsStack.load(environment: beta, preset: nil, flags: flags).effective.model == "beta-model")

        // A chosen provider wins over the config file's; with none chosen, the config file's is the selection.
        #expect(try ProviderCatalog.selectedName(environment: alpha, preset: nil) == "alpha")
        #expect(try ProviderCatalog.selectedName(environment: base, preset: nil) == "beta")

        // A context made for another provider leaves its maker on its own.
        let other = try onAlpha.forProvider("beta")
        #expect(other.providerName == "beta" && other.configuration.apiKey == "sk-beta")
        #expect(onAlpha.providerName == "alpha" && onAlpha.configuration.apiKey == "sk-alpha")
        // Without a choice, the environment's own server: `default`.
        let plain = try ConsoleContext(environment: base, output: RecordingOutput(), diagnostics: RecordingOutput())
        #expect(plain.providerName == ProviderCatalog.defaultName && plain.configuration.apiKey == "sk-default")

        for context in [onAlpha, onBeta, other, plain] { await context.shutdown() }
        #expect(
            getenv("OPENRESPONSES_PROVIDER").map { String(cString: $0) } == before,
            "the process environment is not written")
    }

    /// `OPENRESPONSES_PROVIDER` from the user's shell is an input: read where the value is resolved, then
    /// a flag's choice replaces it; an empty name is `default`, as an empty variable was.
    @Test func theShellsProviderIsReadOnceAsAnInput() {
        let resolved = AppEnvironment.resolved(variables: ["OPENRESPONSES_PROVIDER": "beta", "HOME": "/h"])
        #expect(resolved.provider == "beta")
        #expect(resolved.choosing(provider: nil).provider == "beta")
        #expect(resolved.choosing(provider: "alpha").providerName == "alpha")
        #expect(resolved.choosing(provider: "").providerName == ProviderCatalog.defaultName)
        #expect(AppEnvironment.resolved(variables: ["OPENRESPONSES_PROVIDER": ""]).provider == nil)
        // A value made without the resolver chooses nothing, whatever its variables say.
        #expect(AppEnvironment(variables: ["OPENRESPONSES_PROVIDER": "beta"]).provider == nil)
    }

    /// The inspector's switch and the terminals are part of the value: tests have no terminal.
    @Test func theInspectorSwitchAndTheTerminals() {
        #expect(AppEnvironment(variables: [:]).recordsExchanges)
        #expect(!AppEnvironment(variables: ["OPENRESPONSES_INSPECTOR": "OFF"]).recordsExchanges)
        #expect(AppEnvironment(variables: ["OPENRESPONSES_INSPECTOR": ""]).recordsExchanges)
        #expect(AppEnvironment(variables: [:]).terminal == .none)
        #expect(AppEnvironment.resolved(variables: [:], terminal: .process).terminal == TerminalFacts.process)
    }
}
