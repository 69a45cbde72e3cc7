import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// Presets, the config file and the settings layers, on real files in a temporary directory.
@Suite("Presets and settings layers")
struct PresetTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-presets-\(UUID().uuidString)", isDirectory: true)
    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    var shipped: URL { root.appendingPathComponent("shipped", isDirectory: true) }
    var environment: AppEnvironment {
        AppEnvironment(variables: [
            "OPENRESPONSES_HOME": home.path, "OPENRESPONSES_PRESETS_DIR": shipped.path, "MCP_TOKEN": "tok-123",
        ])
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func precedenceDefaultsConfigPresetFlagsSet() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write(
            "version: 1\npreset: team\nmodel: gpt-4.1\ntemperature: 0.1\nmetadata: {owner: config}\nconsole: {show_usage: false}\n",
            to: home.appendingPathComponent("config.yaml"))
        try write(
            "version: 1\nname: team\ntemperature: 0.5\ntop_p: 0.9\nmetadata: {team: core}\nreasoning: {effort: low}\n",
            to: shipped.appendingPathComponent("team.yaml"))
        let flags = try SettingsLayer.commandLine(model: "gpt-5.1", assignments: ["reasoning.summary=auto"])
        var stack = try SettingsStack.load(environment: environment, preset: nil, flags: flags)
        // A key that both the config file and the preset set: the preset's, and said so.
        #expect(stack.effective.template["temperature"] == .number(0.5))
        #expect(stack.sources["temperature"] == "preset team")
        #expect(stack.effective.model == "gpt-5.1")
        stack.session.assign("temperature", .number(0.9))
        stack.session.assign("top_p", nil)

        var settings = stack.effective
        #expect(settings.preset == "team")
        #expect(settings.model == "gpt-5.1")
        #expect(stack.sources["model"] == "command line")
        // In the console the latest word wins: /set over a flag, and forgetting the /set goes back to it.
        stack.session.assign("model", .string("set-in-the-console"))
        #expect(stack.effective.model == "set-in-the-console")
        #expect(stack.sources["model"] == "/set")
        stack.session.forget("model")
        settings = stack.effective
        #expect(settings.model == "gpt-5.1")
        #expect(settings.template["temperature"] == .number(0.9))
        #expect(settings.template["top_p"] == nil)
        #expect(settings.template["metadata"] == ["owner": "config", "team": "core"])
        #expect(settings.template["reasoning"] == ["effort": "low", "summary": "auto"])
        #expect(settings.showUsage == false)
        #expect(settings.stream == true)

        let sources = stack.sources
        #expect(sources["model"] == "command line")
        #expect(sources["temperature"] == "/set")
        #expect(sources["metadata.owner"] == "config \(home.appendingPathComponent("config.yaml").path)")
        #expect(sources["metadata.team"] == "preset team")
        #expect(sources["reasoning.summary"] == "command line")
        #expect(sources["console.stream"] == "default")
        #expect(sources["top_p"] == nil)

        stack.session.forget("top_p")
        #expect(stack.effective.template["top_p"] == .number(0.9))
    }

    @Test func userPresetsOverrideShippedOnesByName() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("version: 1\ndescription: shipped one\nmodel: a\n", to: shipped.appendingPathComponent("same.yaml"))
        try write("version: 1\ndescription: mine\nmodel: b\n", to: home.appendingPathComponent("presets/same.yaml"))
        try write("version: 1\nmodel: c\n", to: shipped.appendingPathComponent("other.yml"))
        let library = PresetLibrary(environment: environment)
        #expect(try library.load("same").description == "mine")
        #expect(library.names == ["other", "same"])
        let entries = library.entries()
        #expect(entries.map(\.name) == ["other", "same", "same"])
        #expect(entries.filter(\.isOverridden).map(\.url) == [shipped.appendingPathComponent("same.yaml")])
        #expect {
            _ = try library.load("sme")
        } throws: { error in
            "\(error)" == "no preset named 'sme' (did you mean same?); known: other, same"
        }
    }

    @Test func saveThenLoadBuildsTheSamePayload() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write(
            """
            version: 1
            name: rich
            description: every kind of value
            model: gpt-5.1
            instructions: |
              Two lines,
              with "quotes" and a colon: here.
            reasoning: {effort: high, summary: detailed}
            text:
              verbosity: low
              format: {type: json_schema, name: card, strict: true, schema: {type: object, properties: {ok: {type: boolean}}}}
            metadata: {version: "2", flag: "true", empty: "", zip: "012"}
            tools:
              - {type: file_search, vector_store_ids: [vs_1], max_num_results: 3, ranking_options: {score_threshold: 0.25}}
              - type: mcp
                server_label: gh
                server_url: https://example.com/mcp
                headers: {Authorization: "Bearer ${MCP_TOKEN}"}
                require_approval: {never: {tool_names: [search]}}
              - type: function
                name: local_time
                parameters: {type: object, properties: {}}
                handler: {command: [sh, handlers/x.sh], timeout_seconds: 3}
            include: [file_search_call.results]
            console: {show_reasoning: false}
            extra_body: {future_field: {nested: [1, 2.5, null]}}
            """, to: shipped.appendingPathComponent("rich.yaml"))
        let library = PresetLibrary(environment: environment)
        var stack = SettingsStack(
            defaults: SettingsStack.builtInDefaults(environment: environment), preset: try library.load("rich"))
        stack.session.assign("temperature", nil)
        stack.session.assign("max_output_tokens", .integer(500))
        stack.session.assign("file_search.vector_store_ids", .array(["vs_9", "vs_8"]))
        let before = PayloadBuilder().build(settings: stack.effective, conversation: nil, input: "q").json

        let effective = stack.effective
        let url = try library.save(
            Preset(
                name: "mine", description: "saved", template: effective.template,
                console: effective.console, extraBody: effective.extraBody))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        var fresh = SettingsStack(
            defaults: SettingsStack.builtInDefaults(environment: environment), preset: try library.load("mine"))
        let after = PayloadBuilder().build(settings: fresh.effective, conversation: nil, input: "q").json
        #expect(before == after)
        #expect(before.compactString == after.compactString, "key order survives the round trip")
        #expect(after["metadata"] == ["version": "2", "flag": "true", "empty": "", "zip": "012"])
        #expect(after["tools"]?[2]?["handler"] == nil)
        fresh.use(nil)
    }

    @Test func mcpHeadersComeFromTheEnvironmentOnlyWhenSent() throws {
        var settings = TurnSettings(model: "gpt-4.1")
        settings.template["tools"] = [
            [
                "type": "mcp", "server_label": "gh", "server_url": "https://example.com/mcp",
                "headers": ["Authorization": "Bearer ${MCP_TOKEN}"],
            ]
        ]
        let builder = PayloadBuilder()
        let shown = builder.build(settings: settings, conversation: nil, input: "q").json
        #expect(shown["tools"]?[0]?["headers"]?["Authorization"] == "Bearer ${MCP_TOKEN}")
        let sent = try builder.build(settings: settings, conversation: nil, input: "q", for: .send(environment)).json
        #expect(sent["tools"]?[0]?["headers"]?["Authorization"] == "Bearer tok-123")
        #expect {
            _ = try builder.build(
                settings: settings, conversation: nil, input: "q", for: .send(AppEnvironment(variables: [:])))
        } throws: { error in
            (error as? SettingError)?.message
                == "tools[0].headers.Authorization: the environment variable MCP_TOKEN is not set"
        }
    }

    @Test func vectorStoreSettingAddsUpdatesAndRemovesTheFileSearchTool() throws {
        var settings = TurnSettings(model: "gpt-4.1")
        try settings.apply("file_search.vector_store_ids=vs_1, vs_2")
        #expect(settings.template["tools"] == [["type": "file_search", "vector_store_ids": ["vs_1", "vs_2"]]])
        try settings.apply("file_search.vector_store_ids=vs_3")
        #expect(settings.value(forKey: "file_search.vector_store_ids") == ["vs_3"])
        settings.set("file_search.vector_store_ids", to: nil)
        #expect(settings.template["tools"] == nil)

        settings.template["tools"] = [["type": "file_search", "vector_store_ids": []]]
        #expect(
            PayloadBuilder().problems(settings: settings).first?.hasPrefix("tools[0]: file_search has no vector stores")
                == true)
    }

    @Test func aFormatSetOnTheCommandLineReplacesTheWholeFormat() throws {
        var settings = TurnSettings(model: "gpt-4.1")
        settings.template["text"] = [
            "format": ["type": "json_schema", "name": "x", "schema": [:]], "verbosity": "low",
        ]
        try settings.apply("text.format=json_object")
        #expect(settings.template["text"] == ["format": ["type": "json_object"], "verbosity": "low"])
        settings.set("text.verbosity", to: nil)
        settings.set("text.format", to: nil)
        #expect(settings.template["text"] == nil)
    }

    @Test func aBadConfigFileIsReportedWithItsPath() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("version: 1\npreset: 12\ntemprature: 1\n", to: home.appendingPathComponent("config.yaml"))
        #expect {
            _ = try SettingsStack.load(
                environment: environment, preset: nil, flags: SettingsLayer(label: "command line"))
        } throws: { error in
            "\(error)" == "\(home.path)/config.yaml:3:1: temprature: unknown key (did you mean temperature?)"
        }
    }

    @Test func theNewestRequestFieldsGoInPresetsAndAreChecked() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write(
            """
            version: 1
            name: newest
            model: gpt-5.1
            top_logprobs: 3
            include: [message.output_text.logprobs]
            prompt_cache_retention: 24h
            prompt_cache_options: {mode: explicit, ttl: 30m}
            stream_options: {include_obfuscation: false}
            context_management:
              - {type: compaction, compact_threshold: 200000}
            moderation: {model: omni-moderation-latest, policy: {input: {mode: block}, output: {mode: score}}}
            """, to: shipped.appendingPathComponent("newest.yaml"))
        let library = PresetLibrary(environment: environment)
        var stack = SettingsStack(
            defaults: SettingsStack.builtInDefaults(environment: environment), preset: try library.load("newest"))
        let body = try PayloadBuilder().compose(settings: stack.effective, conversation: nil, input: "q", for: .display)
            .request.json
        #expect(body["top_logprobs"] == 3)
        #expect(body["prompt_cache_options"] == ["mode": "explicit", "ttl": "30m"])
        #expect(body["stream_options"] == ["include_obfuscation": false])
        #expect(body["context_management"] == [["type": "compaction", "compact_threshold": 200000]])
        #expect(stack.effective.value(forKey: "context_management.compact_threshold") == 200000)
        #expect(
            body["moderation"] == [
                "model": "omni-moderation-latest", "policy": ["input": ["mode": "block"], "output": ["mode": "score"]],
            ])
        #expect(stack.effective.value(forKey: "moderation.policy.input") == "block")
        // /set replaces the threshold; /unset takes automatic compaction off.
        stack.session.assign("context_management.compact_threshold", .integer(50000))
        #expect(
            PayloadBuilder().build(settings: stack.effective, conversation: nil, input: "q").json["context_management"]
                == [["type": "compaction", "compact_threshold": 50000]])
        stack.session.assign("context_management.compact_threshold", nil)
        #expect(
            PayloadBuilder().build(settings: stack.effective, conversation: nil, input: "q").json["context_management"]
                == nil)

        try write(
            """
            version: 1
            name: low
            context_management:
              - {type: compaction, compact_threshold: 500}
            """, to: shipped.appendingPathComponent("low.yaml"))
        #expect { _ = try library.load("low") } throws: { error in
            "\(error)".contains("low.yaml:4") && "\(error)".contains("compact_threshold") && "\(error)".contains("1000")
        }
    }
}
