import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

@Suite("Settings registry")
struct SettingsRegistryTests {
    @Test(
        "good values",
        arguments: [
            ("temperature=0.7", "temperature", JSONValue.number(0.7)),
            ("temperature=2", "temperature", .integer(2)),
            ("top_p=1", "top_p", .integer(1)),
            ("max_output_tokens=256", "max_output_tokens", .integer(256)),
            ("reasoning.effort=high", "reasoning.effort", .string("high")),
            ("reasoning.summary=detailed", "reasoning.summary", .string("detailed")),
            ("parallel_tool_calls=off", "parallel_tool_calls", .bool(false)),
            ("store=true", "store", .bool(true)),
            (
                "include=reasoning.encrypted_content, file_search_call.results", "include",
                .array(["reasoning.encrypted_content", "file_search_call.results"])
            ),
            ("metadata.project=demo", "metadata.project", .string("demo")),
            ("prompt.variables.city=Paris", "prompt.variables.city", .string("Paris")),
            ("instructions=Be brief = and kind", "instructions", .string("Be brief = and kind")),
        ])
    func goodValues(_ assignment: String, _ key: String, _ value: JSONValue) throws {
        let (_, parsedKey, parsed) = try SettingsRegistry.parseAssignment(assignment)
        #expect(parsedKey == key)
        #expect(parsed == value)
    }

    @Test(
        "bad input names the key and what it takes",
        arguments: [
            ("temperature=3", "temperature: 3 is out of range (a number from 0 to 2)"),
            ("temperature=warm", "temperature: 'warm' is not a number from 0 to 2"),
            ("top_p=-0.1", "top_p: -0.1 is out of range (a number from 0 to 1)"),
            ("max_output_tokens=8", "max_output_tokens: 8 is out of range (a whole number, 16 or more)"),
            ("max_output_tokens=1.5", "max_output_tokens: '1.5' is not a whole number, 16 or more"),
            (
                "reasoning.effort=enormous",
                "reasoning.effort: 'enormous' is not one of none, minimal, low, medium, high, xhigh, max"
            ),
            (
                "reasoning.effort=hgh",
                "reasoning.effort: 'hgh' is not one of none, minimal, low, medium, high, xhigh, max (did you mean high?)"
            ),
            ("store=maybe", "store: 'maybe' is not true or false"),
            (
                "include=reasoning.encrypted_content,file_search.results",
                "include: 'file_search.results' is not one of "
                    + SettingsRegistry.includable.joined(separator: ", ") + " (did you mean file_search_call.results?)"
            ),
            (
                "reasoning.efort=high",
                "unknown setting 'reasoning.efort' (did you mean reasoning.effort?); openresponses settings lists them all"
            ),
            (
                "temprature=1",
                "unknown setting 'temprature' (did you mean temperature?); openresponses settings lists them all"
            ),
            ("flux_capacitor=1", "unknown setting 'flux_capacitor'; openresponses settings lists them all"),
            ("=1", "'=1' is not KEY=VALUE (for example reasoning.effort=high)"),
            ("temperature", "'temperature' is not KEY=VALUE (for example reasoning.effort=high)"),
        ])
    func badInput(_ assignment: String, _ message: String) {
        #expect {
            _ = try SettingsRegistry.parseAssignment(assignment)
        } throws: { error in
            (error as? SettingError)?.message == message
        }
    }

    /// Every console setting `/set` takes is also taken under `console:` in config.yaml and presets (the
    /// file schema lists its keys apart; console.markdown was once missing there).
    @Test func everyConsoleSettingIsAcceptedInTheConfigFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let console = SettingsRegistry.all.filter { $0.key.hasPrefix("console.") }
        #expect(console.count >= 5)
        for descriptor in console {
            let value =
                switch descriptor.kind {
                case .boolean: "false"
                case .integer: "1"
                default: "x"
                }
            let url = directory.appendingPathComponent("config.yaml")
            try "version: 1\nconsole:\n  \(descriptor.key.dropFirst(8)): \(value)\n".write(
                to: url, atomically: true, encoding: .utf8)
            #expect(throws: Never.self, "\(descriptor.key)") { _ = try ConfigFile.load(from: url) }
        }
    }

    @Test func assignmentsLandAtTheirRequestFieldsOverThePreset() throws {
        var settings = TurnSettings(model: "gpt-5.1")
        settings.template["reasoning"] = ["effort": "low", "summary": "auto"]
        settings.template["temperature"] = 1
        for assignment in ["reasoning.effort=high", "console.stream=false", "model=gpt-5-mini", "metadata.team=core"] {
            try settings.apply(assignment)
        }
        let body = PayloadBuilder().build(settings: settings, conversation: nil, input: "hi").json
        #expect(body["model"] == "gpt-5-mini")
        #expect(body["reasoning"] == ["effort": "high", "summary": "auto"])
        #expect(body["temperature"] == 1)
        #expect(body["metadata"] == ["team": "core"])
        #expect(body["stream"] == false)
    }

    @Test func streamOptionsGoOnlyWithAStream() throws {
        var settings = TurnSettings(model: "gpt-5.1")
        for assignment in [
            "stream_options.include_obfuscation=false", "top_logprobs=5", "include=message.output_text.logprobs",
            "prompt_cache_retention=24h", "prompt_cache_options.mode=explicit",
        ] {
            try settings.apply(assignment)
        }
        let streamed = try PayloadBuilder().compose(settings: settings, conversation: nil, input: "hi", for: .display)
            .request.json
        #expect(streamed["stream_options"] == ["include_obfuscation": false])
        #expect(streamed["top_logprobs"] == 5)
        #expect(streamed["prompt_cache_retention"] == "24h")
        #expect(streamed["prompt_cache_options"] == ["mode": "explicit"])
        try settings.apply("console.stream=false")
        let whole = try PayloadBuilder().compose(settings: settings, conversation: nil, input: "hi", for: .display)
        #expect(whole.request.json["stream_options"] == nil)
        #expect(
            whole.notes.contains("stream_options is left out: it applies to streamed answers only (stream is false)"))
    }

    @Test func docsAreGeneratedFromTheRegistry() throws {
        let url = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/settings.md")
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(
            file == SettingsRegistry.markdown(),
            "Docs/settings.md is stale: run openresponses settings --markdown > Docs/settings.md")
        #expect(Set(SettingsRegistry.all.map(\.key)).count == SettingsRegistry.all.count)
    }
}
