import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49: a preset with `{{variables}}` run by the built binary: a missing one is an error at its
/// `file:line:column` and nothing is sent; `-v` fills it; what is piped keeps its braces; `presets validate`
/// warns of unused and undeclared variables.
@Suite("preset variables")
struct PresetVariablesTests {
    static let preset = """
        version: 1
        name: translate
        instructions: "Translate into {{lang}}, in a {{tone}} tone."
        input_template: |
          Text:
          {{input}}
        variables:
          lang: ~
          tone: plain
          spare: x
        """

    @Test func variablesAreFilledFromTheCommandLineAndNeverFromPipedInput() async throws {
        let harness = try await ConsoleHarness.start { _ in .sse(Fixtures.textStream(id: "resp_v", text: "Bonjour")) }
        defer { harness.close() }
        let file = harness.home.appendingPathComponent("presets/translate.yaml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.preset.write(to: file, atomically: true, encoding: .utf8)

        let missing = try await harness.run(["ask", "--preset", "translate", "hello"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("\(file.path):3:31: {{lang}} has no value: give it with -v lang=VALUE"),
            "\(missing.stderr)")
        #expect(harness.server.requests.isEmpty, "nothing is sent with a placeholder left in it")

        let given = try await harness.run(
            ["ask", "--preset", "translate", "-v", "lang=French", "--var", "tone=warm", "hello {{tone}}"],
            stdin: Array("piped {{lang}}\n".utf8))
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout == "Bonjour\n")
        let body = try JSONValue.parse(try #require(harness.server.requests.last?.body))
        #expect(body["instructions"] == "Translate into French, in a warm tone.")
        #expect(body["input"] == "Text:\nhello {{tone}}\n\npiped {{lang}}\n")

        let validated = try await harness.run(["presets", "validate", file.path])
        #expect(validated.status == 0, "warnings do not fail validation")
        #expect(
            validated.stderr.contains("warning: \(file.path):10:3: variables.spare: declared but not used"),
            "\(validated.stderr)")
    }
}
