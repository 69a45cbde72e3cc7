import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// The presets in the repository's `presets/`: they load, carry their schema file, and the function tool's
/// handler runs. `presets validate` and `ask --dry-run` on each (the built binary) are in BinaryTests.
@Suite("Shipped presets")
struct ShippedPresetTests {
    static let directory = Fixtures.shippedPresets

    static var names: [String] {
        PresetLibrary(userDirectory: URL(fileURLWithPath: "/nonexistent"), shippedDirectory: directory).names
    }

    @Test func atLeastTheSixPresetsTheIssueAsksFor() {
        let names = Set(Self.names)
        for wanted in ["default", "deep-reasoning", "json-extraction", "research", "doc-qa", "function-tools"] {
            #expect(names.contains(wanted), "missing shipped preset \(wanted)")
        }
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
