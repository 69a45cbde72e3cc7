import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// `aliases:` in config.yaml: whichever layer names the model may name an alias, and the settings of a turn carry
/// the real id; an alias of an alias (or of itself) is refused with its place in the file.
@Suite("Model aliases")
struct ModelAliasTests {
    let home = TestHome("aliases")
    var environment: AppEnvironment {
        AppEnvironment(variables: [
            "OPENRESPONSES_HOME": home.path, "OPENRESPONSES_PRESETS_DIR": home.appendingPathComponent("shipped").path,
        ])
    }

    func writeConfig(_ extra: String = "") throws {
        try home.write(
            "config.yaml", "version: 1\n\(extra)aliases:\n  fast: gpt-4.1-mini\n  smart: o3\n  gpt-4o: gpt-4.1\n")
    }

    @Test func theModelFlagAndSetNameAnAlias() throws {
        defer { home.remove() }
        try writeConfig()
        let flags = try SettingsLayer.commandLine(model: "fast")
        var stack = try SettingsStack.load(environment: environment, preset: nil, flags: flags)
        #expect(stack.effective.model == "gpt-4.1-mini")
        #expect(stack.effective.template["model"] == "gpt-4.1-mini", "the request template carries the id")
        #expect(stack.namedModel == "fast")
        #expect(stack.aliases.described(stack.namedModel) == "fast → gpt-4.1-mini")
        stack.session.assign("model", "smart")
        #expect(stack.effective.model == "o3")
        // An alias named like a real model id wins over it; an id that is no alias goes as written.
        stack.session.assign("model", "gpt-4o")
        #expect(stack.effective.model == "gpt-4.1")
        stack.session.assign("model", "gpt-5.1")
        #expect(stack.effective.model == "gpt-5.1")
        #expect(stack.aliases.names(for: "gpt-4.1-mini") == ["fast"])
    }

    @Test func aPresetAndTheConfigFileNameAnAlias() throws {
        defer { home.remove() }
        try writeConfig("model: smart\n")
        try home.write("shipped/quick.yaml", "version: 1\nname: quick\nmodel: fast\n")
        let none = SettingsLayer(label: "command line")
        #expect(try SettingsStack.load(environment: environment, preset: nil, flags: none).effective.model == "o3")
        let stack = try SettingsStack.load(environment: environment, preset: "quick", flags: none)
        #expect(stack.effective.model == "gpt-4.1-mini")
        #expect(stack.sources["model"] == "preset quick")
    }

    @Test func anAliasOfAnAliasOrOfItselfIsAnErrorWithItsPlace() throws {
        defer { home.remove() }
        let config = try home.write(
            "config.yaml", "version: 1\naliases:\n  fast: quick\n  quick: gpt-4.1-mini\n  me: me\n")
        #expect {
            _ = try ConfigFile.load(from: config)
        } throws: { error in
            "\(error)" == """
                \(config.path):3:3: aliases.fast: 'quick' is an alias too; an alias points at a model id, not at another alias
                \(config.path):5:3: aliases.me: the alias 'me' points at itself; name a model id
                """
        }
    }
}
