import Foundation
import TestSupport
import Testing
import Workbench

/// The corpus of broken presets in Tests/Fixtures/presets/malformed, each with the exact message a user
/// sees (`path:line:column: key.path: message`; the directory is left out here).
@Suite("Malformed presets")
struct MalformedPresetTests {
    static let directory = Fixtures.directory.appendingPathComponent("presets/malformed", isDirectory: true)

    static let corpus: [(file: String, message: String)] = [
        (
            "yaml-syntax.yaml",
            "yaml-syntax.yaml:4:1: YAML syntax: found unexpected end of stream (while scanning a quoted scalar at line 3, column 15)"
        ),
        (
            "bad-indentation.yaml",
            "bad-indentation.yaml:3:14: YAML syntax: mapping values are not allowed in this context"
        ),
        (
            "top-level-list.yaml",
            "top-level-list.yaml:1:1: expected a mapping of keys (version, name, model, ...) at the top"
        ),
        ("empty.yaml", "empty.yaml:1:1: the file is empty; a preset starts with version: 1"),
        ("no-version.yaml", "no-version.yaml:1:1: 'version' is missing; start the file with version: 1"),
        (
            "future-version.yaml",
            "future-version.yaml:1:10: version: version 2 is not supported (this build reads version 1)"
        ),
        (
            "reasoning-typo.yaml",
            "reasoning-typo.yaml:4:3: reasoning.efort: unknown key (did you mean reasoning.effort?)"
        ),
        ("effort-at-top.yaml", "effort-at-top.yaml:3:1: effort: unknown key (did you mean reasoning.effort?)"),
        (
            "temperature-range.yaml",
            "temperature-range.yaml:3:14: temperature: 3 is out of range (a number from 0 to 2)"
        ),
        ("temperature-type.yaml", "temperature-type.yaml:3:14: temperature: 'hot' is not a number from 0 to 2"),
        (
            "temperature-quoted.yaml",
            "temperature-quoted.yaml:3:14: temperature: '0.5' is not a number from 0 to 2 (it is quoted, so it is text; remove the quotes)"
        ),
        (
            "effort-choice.yaml",
            "effort-choice.yaml:4:11: reasoning.effort: 'hihg' is not one of none, minimal, low, medium, high, xhigh, max (did you mean high?)"
        ),
        (
            "tokens-fraction.yaml",
            "tokens-fraction.yaml:3:20: max_output_tokens: '100.5' is not a whole number, 16 or more"
        ),
        ("empty-model.yaml", "empty-model.yaml:2:7: model: has no value (expected text)"),
        ("json-top-p.json", "json-top-p.json:4:12: top_p: 1.5 is out of range (a number from 0 to 1)"),
        ("tools-not-list.yaml", "tools-not-list.yaml:4:3: tools: expected a list of tools, found a mapping"),
        (
            "tool-type-typo.yaml",
            "tool-type-typo.yaml:4:11: tools[0].type: 'web_serach' is not a known tool type (did you mean web_search?); known: file_search, "
                + "web_search, web_search_2025_08_26, web_search_preview, web_search_preview_2025_03_11, code_interpreter, image_generation, mcp, function"
        ),
        (
            "tool-without-type.yaml",
            "tool-without-type.yaml:4:5: tools[0]: a tool needs 'type' (one of file_search, web_search, web_search_2025_08_26, "
                + "web_search_preview, web_search_preview_2025_03_11, code_interpreter, image_generation, mcp, function)"
        ),
        (
            "file-search-no-stores.yaml",
            "file-search-no-stores.yaml:4:5: tools[0]: a file_search tool needs 'vector_store_ids' (a list of strings)"
        ),
        (
            "mcp-literal-secret.yaml",
            "mcp-literal-secret.yaml:8:7: tools[0].headers.Authorization: literal values are not allowed here (secrets stay out of presets); "
                + "name an environment variable, as in \"Bearer ${MCP_TOKEN}\""
        ),
        ("mcp-no-server.yaml", "mcp-no-server.yaml:4:5: tools[0]: an mcp tool needs 'server_url' or 'connector_id'"),
        (
            "function-bad-name.yaml",
            "function-bad-name.yaml:5:11: tools[0].name: 'get weather' is not a valid name (1 to 64 letters, digits, _ or -)"
        ),
        (
            "schema-file-missing.yaml",
            "schema-file-missing.yaml:7:18: text.format.schema_file: cannot read missing.json: no such file"
        ),
        (
            "schema-file-invalid.yaml",
            "broken-schema.json:5:3: invalid JSON (expected a string key, found '}'), read for text.format.schema_file of schema-file-invalid.yaml"
        ),
        ("duplicate-key.yaml", "duplicate-key.yaml:3:1: duplicate key 'store' in one mapping"),
        (
            "name-mismatch.yaml",
            "name-mismatch.yaml:2:7: name: 'somebody-else' does not match the file name 'name-mismatch' (presets are found by file name)"
        ),
        (
            "console-options.yaml",
            "console-options.yaml:4:11: console.stream: 'sometimes' is not true or false\n"
                + "console-options.yaml:5:3: console.show_usag: unknown key (did you mean console.show_usage?)"
        ),
        (
            "include-value.yaml",
            "include-value.yaml:3:37: include[1]: 'reasoning.encrypted' is not one of file_search_call.results, web_search_call.results, "
                + "web_search_call.action.sources, message.input_image.image_url, computer_call_output.output.image_url, "
                + "code_interpreter_call.outputs, reasoning.encrypted_content, message.output_text.logprobs (did you mean reasoning.encrypted_content?)"
        ),
    ]

    @Test("each malformed preset gives its exact message", arguments: corpus)
    func exactMessage(_ file: String, _ message: String) {
        let url = Self.directory.appendingPathComponent(file)
        do {
            let preset = try Preset.load(from: url)
            Issue.record("\(file) loaded as \(preset.name)")
        } catch {
            let text = error.description
                .replacingOccurrences(of: Self.directory.path + "/", with: "")
                .replacingOccurrences(of: Self.directory.standardizedFileURL.path + "/", with: "")
            #expect(text == message)
        }
    }

    @Test func theCorpusCoversEveryFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0 != "broken-schema.json" }
        #expect(Set(files) == Set(Self.corpus.map(\.file)))
        #expect(Self.corpus.count >= 15)
    }

    @Test func everyProblemInAFileIsReportedAtOnce() throws {
        let text = "version: 1\ntemperature: 9\nreasoning: {effort: loud}\ntools: [{type: mcp, server_label: x}]\n"
        #expect {
            _ = try Preset.parse(text, path: "many.yaml", directory: URL(fileURLWithPath: "/tmp"), fileName: "many")
        } throws: { error in
            let lines = "\(error)".split(separator: "\n")
            return lines.count == 3 && lines[0].hasPrefix("many.yaml:2:14: temperature:")
                && lines[1].hasPrefix("many.yaml:3:21: reasoning.effort:")
                && lines[2].hasPrefix("many.yaml:4:9: tools[0]:")
        }
    }
}
