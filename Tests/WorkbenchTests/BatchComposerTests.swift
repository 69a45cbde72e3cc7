import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// `batch submit`'s composition: each prompt line made into a `/v1/responses` body exactly as `ask` composes it
/// (the same `PayloadBuilder`, the preset, the line's vars and settings over it), full bodies kept as written,
/// and every problem of every line named `INPUT.jsonl:LINE: key: message` with nothing written.
@Suite("Batch composer")
struct BatchComposerTests {
    let home = TestHome("batch-compose")
    var environment: AppEnvironment {
        AppEnvironment(variables: [
            "OPENRESPONSES_HOME": home.path, "OPENRESPONSES_PRESETS_DIR": home.appendingPathComponent("shipped").path,
            "OPENAI_API_KEY": "sk-x",
        ])
    }

    func stack(preset: String? = "greeter", assignments: [String] = []) throws -> SettingsStack {
        try home.write(
            "presets/greeter.yaml",
            "version: 1\nmodel: gpt-4.1-mini\ninstructions: Greet {{name}} warmly.\nvariables:\n  name: Ada\ntemperature: 0.5\n"
        )
        return try SettingsStack.load(
            environment: environment, preset: preset,
            flags: try SettingsLayer.commandLine(assignments: assignments))
    }

    func compose(_ lines: [String], stack: SettingsStack) throws -> (BatchComposer.Plan, [JSONValue]) {
        try home.write("input.jsonl", lines.joined(separator: "\n") + "\n")
        let output = home.appendingPathComponent("composed.jsonl").path
        let plan = try BatchComposer(base: stack, environment: environment).compose(
            inputPath: home.appendingPathComponent("input.jsonl").path, outputPath: output)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return (plan, try text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) })
    }

    @Test func aPromptBecomesTheBodyAskWouldSend() throws {
        defer { home.remove() }
        let stack = try stack(assignments: ["max_output_tokens=200"])
        let (plan, lines) = try compose(
            [
                #"{"id": "q1", "input": "Say hi"}"#, "",
                #"{"input": "Say bye", "vars": {"name": "Grace"}, "model": "gpt-4.1", "settings": {"temperature": 0}}"#,
            ], stack: stack)
        #expect(plan.requests == 2)
        #expect(plan.lines.map(\.id) == ["q1", "line-3"])
        #expect(plan.lines.map(\.line) == [1, 3])
        // The first line, composed by hand exactly as ask composes: the same body, minus the stream.
        let settings = stack.effective
        var expected = try PayloadBuilder().compose(
            settings: settings, conversation: nil, input: settings.templated("Say hi"), for: .send(environment)
        ).request.body
        expected["stream"] = nil
        expected["stream_options"] = nil
        #expect(lines[0]["custom_id"] == "q1")
        #expect(lines[0]["method"] == "POST")
        #expect(lines[0]["url"] == "/v1/responses")
        #expect(lines[0]["body"] == .object(expected))
        #expect(lines[0]["body"]?["instructions"] == "Greet Ada warmly.")
        #expect(lines[0]["body"]?["max_output_tokens"] == 200)
        #expect(lines[0]["body"]?["stream"] == nil)
        // The second: its vars, model and settings over the preset's.
        #expect(lines[1]["body"]?["instructions"] == "Greet Grace warmly.")
        #expect(lines[1]["body"]?["model"] == "gpt-4.1")
        #expect(lines[1]["body"]?["temperature"] == 0)
        #expect(plan.models["gpt-4.1-mini"]?.requests == 1)
        #expect(plan.models["gpt-4.1-mini"]?.maximumOutputTokens == 200)
        #expect(plan.models["gpt-4.1"]?.requests == 1)
        #expect((plan.models["gpt-4.1"]?.estimatedInputTokens ?? 0) > 0)
    }

    @Test func aFullRequestIsKeptAsWritten() throws {
        defer { home.remove() }
        let body = #"{"model": "o3", "input": [{"role": "user", "content": "x"}], "reasoning": {"effort": "high"}}"#
        let (plan, lines) = try compose(
            [
                #"{"custom_id": "a", "method": "POST", "url": "/v1/responses", "body": \#(body)}"#,
                #"{"id": 7, "body": \#(body)}"#,
            ], stack: try stack())
        #expect(plan.requests == 2)
        #expect(lines[0]["body"] == (try JSONValue.parse(Array(body.utf8))))
        #expect(lines[1]["custom_id"] == "7")
    }

    @Test func everyProblemIsNamedAtItsLineAndNothingIsWritten() throws {
        defer { home.remove() }
        let bad = [
            #"{"id": "ok", "input": "fine"}"#,
            #"not json"#,
            #"[1, 2]"#,
            #"{"id": "ok", "input": "taken id"}"#,
            #"{"input": "x", "temperature": 2}"#,
            #"{"input": "x", "settings": {"temprature": 1, "reasoning.effort": "huge"}}"#,
            #"{"input": "x", "vars": {"name": [1]}}"#,
            #"{"input": ""}"#,
            #"{"body": {"model": "o3", "input": "x", "stream": true}, "extra": 1}"#,
            #"{"custom_id": "z", "url": "/v1/chat/completions", "body": {"input": "x"}}"#,
            #"{"id": {"nested": true}, "input": "x"}"#,
        ]
        let output = home.appendingPathComponent("composed.jsonl").path
        #expect {
            _ = try compose(bad, stack: try stack())
        } throws: { error in
            let text = "\(error)"
            let path = home.appendingPathComponent("input.jsonl").path
            let expected = [
                "\(path):2: not JSON", "\(path):3: a line is a JSON object, not an array of 2 items",
                "\(path):4: id: the id \"ok\" is taken",
                "\(path):5: temperature: unknown key (a setting goes in \"settings\": {\"temperature\": ...})",
                "\(path):6: settings.temprature: unknown setting 'temprature' (did you mean temperature?)",
                "\(path):6: settings.reasoning.effort: reasoning.effort: 'huge' is not one of",
                "\(path):7: vars.name: a variable's value is text, not an array of 1 item",
                "\(path):8: input: a prompt is a non-empty string or a list of input items",
                "\(path):9: extra: unknown key beside body",
                "\(path):9: body.stream: a batch's answers are not streamed",
                "\(path):10: url: \"/v1/chat/completions\" is not /v1/responses",
                "\(path):10: body.model: missing",
                "\(path):11: id: an id is text or a whole number, not an object",
            ]
            for line in expected where !text.contains(line) { Issue.record("missing \(line) in:\n\(text)") }
            #expect((error as? BatchInputError)?.exitStatus == .usage)
            return error is BatchInputError
        }
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is left to upload")
    }

    @Test func aPresetVariableLeftWithoutAValueIsNamed() throws {
        defer { home.remove() }
        try home.write("presets/letter.yaml", "version: 1\ninstructions: Write to {{recipient}}.\n")
        let stack = try SettingsStack.load(environment: environment, preset: "letter", flags: SettingsLayer(label: "x"))
        #expect {
            _ = try compose([#"{"input": "x"}"#, #"{"input": "y", "vars": {"recipient": "Bo"}}"#], stack: stack)
        } throws: { error in
            let text = "\(error)"
            #expect(text.contains("input.jsonl:1: vars: "), "\(text)")
            #expect(text.contains("recipient"), "\(text)")
            #expect(!text.contains("input.jsonl:2"), "\(text)")
            return true
        }
    }

    @Test func anEmptyInputIsAProblem() throws {
        defer { home.remove() }
        #expect(throws: BatchInputError.self) { _ = try compose(["", "  "], stack: try stack()) }
    }
}
