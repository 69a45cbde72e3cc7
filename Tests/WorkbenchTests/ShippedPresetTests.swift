import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// The presets in the repository's `presets/`: they load, `presets validate` accepts them, and the body
/// `ask --dry-run --preset NAME` prints for each is valid against OpenAI's CreateResponse schema.
@Suite("Shipped presets")
struct ShippedPresetTests {
    static let directory = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("presets", isDirectory: true)

    static var names: [String] {
        PresetLibrary(userDirectory: URL(fileURLWithPath: "/nonexistent"), shippedDirectory: directory).names
    }

    var environment: [String: String] {
        [
            "OPENRESPONSES_HOME": FileManager.default.temporaryDirectory.appendingPathComponent(
                "or-shipped-\(UUID().uuidString)"
            ).path,
            "OPENRESPONSES_PRESETS_DIR": Self.directory.path, "OPENAI_API_KEY": "sk-unused", "PATH": "/usr/bin:/bin",
        ]
    }

    @Test func atLeastTheSixPresetsTheIssueAsksFor() {
        let names = Set(Self.names)
        for wanted in ["default", "deep-reasoning", "json-extraction", "research", "doc-qa", "function-tools"] {
            #expect(names.contains(wanted), "missing shipped preset \(wanted)")
        }
    }

    @Test func presetsValidateAcceptsThemAll() async throws {
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["presets", "validate"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == Self.names.count)
    }

    @Test(.enabled(if: SpecValidation.available, "../shared or python3 jsonschema is absent"))
    func dryRunBodiesMatchTheSpec() async throws {
        var bodies: [JSONValue] = []
        for name in Self.names {
            let result = try await Subprocess.run(
                Subprocess.openresponsesBinary, ["ask", "--dry-run", "--preset", name, "What is in the documents?"],
                environment: environment)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let body = try JSONValue.parse(Array(result.stdout.utf8))
            #expect(body["input"] == "What is in the documents?")
            bodies.append(body)
        }
        #expect(bodies.count == Self.names.count)
        let problems = try await SpecValidation.validate(bodies)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theJSONExtractionPresetCarriesItsSchemaFile() throws {
        let preset = try Preset.load(from: Self.directory.appendingPathComponent("json-extraction.yaml"))
        let schema = try JSONValue.parse(
            Array(try Data(contentsOf: Self.directory.appendingPathComponent("schemas/contact-card.json"))))
        #expect(preset.template["text"]?["format"]?["schema"] == schema)
        #expect(preset.template["text"]?["format"]?["schema_file"] == nil)
    }

    @Test func theFunctionToolHandlerRunsAndOnlyReadsTheClock() async throws {
        let preset = try Preset.load(from: Self.directory.appendingPathComponent("function-tools.yaml"))
        let handler = try #require(preset.template["tools"]?[0]?["handler"])
        #expect(handler["working_directory"] == .string(Self.directory.path))
        let command = handler["command"]?.arrayValue?.compactMap { $0.stringValue } ?? []
        let words = try #require(command.isEmpty ? nil : command)
        let script = "cd '\(Self.directory.path)' && exec " + words.joined(separator: " ")
        let result = try await Subprocess.run(
            "/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], stdin: #"{"timezone":"UTC"}"#)
        #expect(result.status == 0)
        let output = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(output["timezone"] == "UTC")
        #expect(output["local_time"]?.stringValue?.hasSuffix("+0000") == true)
    }
}
