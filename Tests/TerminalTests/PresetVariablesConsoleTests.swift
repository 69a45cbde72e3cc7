import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49 in a real terminal (tmux): a preset's `{{variables}}` given with `/var`, listed with `/vars`, and
/// a turn refused while one has no value; a model alias shown and set by `/model`.
@Suite("preset variables and aliases in the console", .serialized)
struct PresetVariablesConsoleTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func varGivesValuesVarsListsThemAndAMissingOneRefusesTheTurn() async throws {
        let preset = """
            version: 1
            name: translate
            instructions: "Translate into {{lang}}, in a {{tone}} tone."
            variables:
              lang: ~
              tone: plain
            """
        let prepare: (inout ConsoleHarness) throws -> Void = { harness in
            let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            try preset.write(
                to: presets.appendingPathComponent("translate.yaml"), atomically: true, encoding: .utf8)
            try "version: 1\naliases:\n  fast: gpt-4.1-mini\n".write(
                to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        }
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter()), prepare: prepare) {
            tmux, server, _ in
            try await tmux.send(steps: [
                ("/preset use translate", "Using preset translate"),
                ("/vars", "(none: a turn is refused until /var lang VALUE)"),
                ("hello", "{{lang}} has no value"),
            ])
            #expect(server.requests.isEmpty, "nothing is sent with a placeholder left in it")
            try await tmux.send(steps: [
                ("/var lang French", "{{lang}} = French"),
                ("/vars", "lang  French  /var or -v"),
                ("/model fast", "fast → gpt-4.1-mini"),
                ("hello {{tone}}", "echo: hello {{tone}}"),
            ])
            let body = try #require(server.requests.last?.jsonBody)
            #expect(body["instructions"] as? String == "Translate into French, in a plain tone.")
            #expect(body["model"] as? String == "gpt-4.1-mini")
            try await tmux.send("/var lang", until: "{{lang}} dropped: no value")
        }
    }
}
