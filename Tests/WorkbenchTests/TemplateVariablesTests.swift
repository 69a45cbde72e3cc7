import Foundation
import ResponsesAPI
import Testing

@testable import Workbench

/// Issue 49: `{{name}}` placeholders in a preset's instructions, input template and tool descriptions,
/// replaced from `-v`/`/var` values over the preset's defaults; the user's message is never read for them.
@Suite("preset variables")
struct TemplateVariablesTests {
    static let yaml = """
        version: 1
        name: translate
        instructions: "Translate into {{lang}}, in a {{ tone }} tone. Keep {{not a name}} and {{}} as written."
        input_template: |
          Text ({{tone}}):
          {{input}}
        tools:
          - type: function
            name: glossary
            description: "Looks words up in {{lang}}"
            parameters: {type: object, properties: {}}
        variables:
          lang: ~
          tone: plain
          spare: 3
        """

    static func preset(_ text: String = yaml) throws -> Preset {
        try Preset.parse(
            text, path: "/p/translate.yaml", directory: URL(fileURLWithPath: "/p"), fileName: "translate")
    }

    @Test func placeholdersAreNamesBetweenDoubleBraces() {
        let names = TemplateVariables.placeholders(in: "a {{x}} b {{ y_2 }} {{no way}} {{-z}} {{{w}}} {{x}}").map(
            \.name)
        #expect(names == ["x", "y_2", "w", "x"])
        let result = TemplateVariables.substitute("{{x}}{{y}}{{x}}", values: ["x": "{{y}}"])
        #expect(result.text == "{{y}}{{y}}{{y}}" && result.missing == ["y"], "a value is not read again")
    }

    @Test func aMissingVariableIsNamedWithItsLineAndColumn() throws {
        let preset = try Self.preset()
        #expect(preset.usedVariables == ["lang", "tone"])
        let (resolved, missing) = preset.resolvingVariables([:])
        #expect(
            missing.map(\.description) == [
                "/p/translate.yaml:3:31: {{lang}} has no value: give it with -v lang=VALUE (/var lang VALUE in the console) "
                    + "or a default under the preset's variables:"
            ])
        #expect(
            resolved.template["instructions"]?.stringValue?.hasPrefix("Translate into {{lang}}, in a plain") == true)
        // Counted by scalar, CRLF lines too.
        let location = try #require(TemplateVariables.location(of: "b", in: "x: 1\r\né: \"{{a}} {{b}}\""))
        #expect(location.line == 2 && location.column == 11)
    }

    @Test func valuesReplaceDefaultsInEveryTemplatedText() throws {
        let (resolved, missing) = try Self.preset().resolvingVariables(["lang": "French", "tone": "formal"])
        #expect(missing.isEmpty)
        #expect(
            resolved.template["instructions"]?.stringValue
                == "Translate into French, in a formal tone. Keep {{not a name}} and {{}} as written.")
        #expect(resolved.template["tools"]?[0]?["description"] == "Looks words up in French")
        #expect(resolved.inputTemplate == "Text (formal):\n{{input}}\n")
    }

    @Test func theUsersMessageIsNeverReadForPlaceholders() throws {
        let stack = {
            var stack = SettingsStack(defaults: SettingsLayer(label: "default"), preset: try Self.preset())
            stack.variables = ["lang": "French"]
            return stack
        }
        let settings = try stack().effective
        #expect(settings.missingVariables.isEmpty)
        #expect(
            settings.templated(.string("say {{lang}} {{input}}")) == .string("Text (plain):\nsay {{lang}} {{input}}\n"))
        let message: JSONValue = [
            [
                "role": "user",
                "content": [["type": "input_text", "text": "{{tone}}"], ["type": "input_image", "image_url": "x"]],
            ]
        ]
        #expect(settings.templated(message)[0]?["content"]?[0]?["text"] == "Text (plain):\n{{tone}}\n")
        #expect(
            settings.templated(.array([["type": "function_call_output", "output": "{{lang}}"]]))[0]?["output"]
                == "{{lang}}")
        #expect(Preset.applying(inputTemplate: "Summarize:", to: "x") == "Summarize:\n\nx")
    }

    @Test func aTurnWithAMissingVariableIsRefused() throws {
        let stack = SettingsStack(defaults: SettingsLayer(label: "default"), preset: try Self.preset())
        #expect(throws: SettingError.self) {
            try PayloadBuilder().compose(settings: stack.effective, conversation: nil, input: "hi", for: .display)
        }
    }

    @Test func validateWarnsOfUnusedAndUndeclaredVariables() throws {
        let text = Self.yaml.replacingOccurrences(of: "in a {{ tone }} tone", with: "for {{audience}}")
        let warnings = try Self.preset(text).variableWarnings.map(\.description)
        #expect(warnings.contains { $0.contains("variables.spare: declared but not used") }, "\(warnings)")
        #expect(
            warnings.contains { $0.hasPrefix("/p/translate.yaml:3:45: {{audience}} is not declared") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("tone") }, "tone is used by the input template")
    }

    @Test func badVariablesAreErrorsAtTheirKey() {
        #expect(throws: PresetError.self) {
            try Self.preset(Self.yaml + "\n  9lives: x\n")
        }
        #expect(throws: PresetError.self) {
            try Self.preset(Self.yaml + "\n  input: x\n")
        }
        #expect(throws: PresetError.self) {
            try Self.preset(Self.yaml + "\n  list: [a, b]\n")
        }
    }
}
