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
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }

        try tmux.type("/preset use deep-reasoning")
        try await tmux.waitFor("Using preset deep-reasoning: A reasoning model at high effort")
        try tmux.type("/set max_output_tokens 1000")
        try await tmux.waitFor("max_output_tokens = 1000")
        try tmux.type("/set reasoning.efort low")
        try await tmux.waitFor("did you mean reasoning.effort?")
        try tmux.type("/set temperature 7")
        try await tmux.waitFor("temperature: 7 is out of range (a number from 0 to 2)")
        try tmux.type("/preset use no-such-preset")
        try await tmux.waitFor("error: no preset named 'no-such-preset'")
        try tmux.type("/unset text.verbosity")
        try await tmux.waitFor("text.verbosity will not be sent (it was medium)")

        // A turn carries the preset's settings and the /set ones.
        try tmux.type("hello preset")
        try await tmux.waitFor("echo: hello preset")
        let body = try #require(server.requests.last?.jsonBody)
        #expect(body["model"] as? String == "gpt-5.1")
        #expect((body["reasoning"] as? [String: Any])?["effort"] as? String == "high")
        #expect((body["reasoning"] as? [String: Any])?["summary"] as? String == "detailed")
        #expect(body["max_output_tokens"] as? Int == 1000)
        #expect(body["text"] == nil)

        try tmux.type("/settings")
        let settings = try await tmux.waitFor("max_output_tokens")
        #expect(settings.contains("reasoning.effort"))
        #expect(settings.range(of: #"max_output_tokens\s+1000\s+/set"#, options: .regularExpression) != nil)
        #expect(
            settings.range(of: #"reasoning\.effort\s+high\s+preset deep-reasoning"#, options: .regularExpression) != nil
        )
        #expect(settings.contains("not sent (/unset): text.verbosity"))

        try tmux.type("/payload hello")
        var screen = try await tmux.waitFor("> /payload hello\n")
        screen = try await tmux.waitFor("\"stream\": true", count: 1)
        let before = try Self.payload(in: screen, occurrence: 1)
        #expect(before["previous_response_id"] == "resp_1")
        #expect(before["max_output_tokens"] == 1000)

        try tmux.type("/preset save my-deep")
        try await tmux.waitFor("Saved preset my-deep to \(harness.home.path)/presets/my-deep.yaml")
        try tmux.type("/reset")
        try await tmux.waitFor("Dropped 2 /set and /unset values.")
        try tmux.type("/preset use my-deep")
        try await tmux.waitFor("Using preset my-deep")
        try tmux.type("/payload hello")
        screen = try await tmux.waitFor("\"stream\": true", count: 2)
        let after = try Self.payload(in: screen, occurrence: 2)
        #expect(after == before)

        try tmux.type("/preset list")
        try await tmux.waitFor("* my-deep")
        try tmux.type("/preset diff deep-reasoning my-deep")
        let diff = try await tmux.waitFor("+++ my-deep")
        #expect(diff.contains("max_output_tokens"))

        try tmux.type("/quit")
        try await tmux.waitFor("\n$ ")
        let mode = try FileManager.default.attributesOfItem(
            atPath: harness.home.appendingPathComponent("presets/my-deep.yaml").path)[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
        await server.stop()
    }

    @Test func aBrokenPresetIsReportedAndTheLatestWordWinsOverAFlag() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try "version: 1\nreasoning:\n  effort: extreme\n".write(
            to: presets.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let tmux = try await harness.startConsole(arguments: ["--model", "openai/echo"])
        defer { tmux.kill() }

        try tmux.type("/preset use broken")
        try await tmux.waitFor(
            "broken.yaml:3:11: reasoning.effort: 'extreme' is not one of none, minimal, low, medium, high, xhigh")
        try tmux.type("still alive")
        try await tmux.waitFor("echo: still alive")
        #expect(server.requests.last?.jsonBody?["model"] as? String == "openai/echo")
        #expect(server.requests.last?.jsonBody?["reasoning"] == nil)
        // The latest word wins: /set changes a key given on the command line; /reset goes back to the flag.
        try tmux.type("/set model other")
        try await tmux.waitFor("model = other (over the command line's value; /reset model goes back to it)")
        try tmux.type("with the other model")
        try await tmux.waitFor("echo: with the other model")
        #expect(server.requests.last?.jsonBody?["model"] as? String == "other")
        try tmux.type("/reset model")
        try await tmux.waitFor("model = openai/echo (from command line)")
        try tmux.type("back to the flag")
        try await tmux.waitFor("echo: back to the flag")
        #expect(server.requests.last?.jsonBody?["model"] as? String == "openai/echo")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
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
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }

        try tmux.type("/pre", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("> /preset ")
        try tmux.type("use deep-r", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("> /preset use deep-reasoning ")
        try tmux.press("Enter")
        try await tmux.waitFor("Using preset deep-reasoning")

        try tmux.type("/set reasoning.eff", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("> /set reasoning.effort ")
        try tmux.type("mi", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("> /set reasoning.effort minimal ")
        try tmux.press("Enter")
        let screen = try await tmux.waitFor("reasoning.effort = minimal")
        // Each Tab completed one word in place: the lines as entered are the completed ones.
        #expect(screen.contains("> /preset use deep-reasoning \n"))
        #expect(screen.contains("> /set reasoning.effort minimal \n"))
        #expect(server.requests.isEmpty, "completing and setting send nothing")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }
}
