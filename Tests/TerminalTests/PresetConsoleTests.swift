import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Presets and settings in the REPL, typed into a real terminal (tmux), against the loopback server.
@Suite("Presets in the console", .serialized)
struct PresetConsoleTests {
    /// The JSON `/payload` printed after the `occurrence`-th (1-based) `/payload` command on the screen.
    static func payload(in screen: String, occurrence: Int) throws -> JSONValue {
        let parts = screen.components(separatedBy: "> /payload hello\n")
        guard parts.count > occurrence else { throw PayloadNotFound(screen: screen) }
        let json = parts[occurrence].components(separatedBy: "\n> ").first ?? ""
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("note: ") }
        return try JSONValue.parse(lines.joined(separator: "\n"))
    }

    @Test func presetSwitchSetTurnSaveResetUseReproducesThePayload() async throws {
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter())) { tmux, server, harness in
            try await tmux.send(steps: [
                ("/preset use deep-reasoning", "Using preset deep-reasoning: A reasoning model at high effort"),
                ("/set max_output_tokens 1000", "max_output_tokens = 1000"),
                ("/set reasoning.efort low", "did you mean reasoning.effort?"),
                ("/set temperature 7", "temperature: 7 is out of range (a number from 0 to 2)"),
                ("/preset use no-such-preset", "error: no preset named 'no-such-preset'"),
                ("/unset text.verbosity", "text.verbosity will not be sent (it was medium)"),
            ])

            // A turn carries the preset's settings and the /set ones.
            try await tmux.send("hello preset", until: "echo: hello preset")
            let body = try #require(server.requests.last?.jsonBody)
            #expect(body["model"] as? String == "gpt-5.1")
            #expect((body["reasoning"] as? [String: Any])?["effort"] as? String == "high")
            #expect((body["reasoning"] as? [String: Any])?["summary"] as? String == "detailed")
            #expect(body["max_output_tokens"] as? Int == 1000)
            #expect(body["text"] == nil)

            let settings = try await tmux.send("/settings", until: "max_output_tokens")
            #expect(settings.contains("reasoning.effort"))
            #expect(settings.range(of: #"max_output_tokens\s+1000\s+/set"#, options: .regularExpression) != nil)
            #expect(
                settings.range(
                    of: #"reasoning\.effort\s+high\s+preset deep-reasoning"#, options: .regularExpression) != nil)
            #expect(settings.contains("not sent (/unset): text.verbosity"))

            try await tmux.send("/payload hello", until: "> /payload hello\n")
            var screen = try await tmux.waitFor("\"stream\": true", count: 1)
            let before = try Self.payload(in: screen, occurrence: 1)
            #expect(before["previous_response_id"] == "resp_1")
            #expect(before["max_output_tokens"] == 1000)

            let saved = "Saved preset my-deep to \(harness.home.path)/presets/my-deep.yaml"
            try await tmux.send("/preset save my-deep", until: saved)
            try await tmux.send("/reset", until: "Dropped 2 /set and /unset values.")
            try await tmux.send("/preset use my-deep", until: "Using preset my-deep")
            screen = try await tmux.send("/payload hello", until: "\"stream\": true", count: 2)
            let after = try Self.payload(in: screen, occurrence: 2)
            #expect(after == before)

            try await tmux.send("/preset list", until: "* my-deep")
            let diff = try await tmux.send("/preset diff deep-reasoning my-deep", until: "+++ my-deep")
            #expect(diff.contains("max_output_tokens"))

            try await tmux.quit(typing: "/quit")
            let mode = try FileManager.default.attributesOfItem(
                atPath: harness.home.appendingPathComponent("presets/my-deep.yaml").path)[.posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test func aBrokenPresetIsReportedAndTheLatestWordWinsOverAFlag() async throws {
        let prepare: (inout ConsoleHarness) throws -> Void = { harness in
            let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            try "version: 1\nreasoning:\n  effort: extreme\n".write(
                to: presets.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        }
        try await ConsoleHarness.withConsole(
            route: echoRoute(counter: Counter()), arguments: ["--model", "openai/echo"], prepare: prepare
        ) { tmux, server, _ in
            try await tmux.send(
                "/preset use broken",
                until:
                    "broken.yaml:3:11: reasoning.effort: 'extreme' is not one of none, minimal, low, medium, high, xhigh"
            )
            try await tmux.send("still alive", until: "echo: still alive")
            #expect(server.requests.last?.jsonBody?["model"] as? String == "openai/echo")
            #expect(server.requests.last?.jsonBody?["reasoning"] == nil)
            // The latest word wins: /set changes a key given on the command line; /reset goes back to the flag.
            try await tmux.send(
                "/set model other", until: "model = other (over the command line's value; /reset model goes back to it)"
            )
            try await tmux.send("with the other model", until: "echo: with the other model")
            #expect(server.requests.last?.jsonBody?["model"] as? String == "other")
            try await tmux.send("/reset model", until: "model = openai/echo (from command line)")
            try await tmux.send("back to the flag", until: "echo: back to the flag")
            #expect(server.requests.last?.jsonBody?["model"] as? String == "openai/echo")
            try await tmux.quit()
        }
    }
}

struct PayloadNotFound: Error, CustomStringConvertible {
    var screen: String
    var description: String { "no /payload output on the screen:\n\(screen)" }
}

/// Tab at the console's prompt, in a real terminal.
@Suite("Tab completion in the console", .serialized)
struct CompletionTerminalTests {
    @Test func tabCompletesACommandAPresetNameAndASettingValue() async throws {
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter())) { tmux, server, _ in
            try await tmux.complete("/pre", to: "> /preset ")
            try await tmux.complete("use deep-r", to: "> /preset use deep-reasoning ")
            try tmux.press("Enter")
            try await tmux.waitFor("Using preset deep-reasoning")

            try await tmux.complete("/set reasoning.eff", to: "> /set reasoning.effort ")
            try await tmux.complete("mi", to: "> /set reasoning.effort minimal ")
            try tmux.press("Enter")
            let screen = try await tmux.waitFor("reasoning.effort = minimal")
            // Each Tab completed one word in place: the lines as entered are the completed ones.
            #expect(screen.contains("> /preset use deep-reasoning \n"))
            #expect(screen.contains("> /set reasoning.effort minimal \n"))
            #expect(server.requests.isEmpty, "completing and setting send nothing")
            try await tmux.quit()
        }
    }
}
