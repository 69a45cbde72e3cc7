import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// The presets in the repository's `presets/` through the built binary: `presets validate` accepts them, and
/// the body `ask --dry-run --preset NAME` prints for each is valid against OpenAI's CreateResponse schema.
@Suite("Shipped presets")
struct ShippedPresetTests {
    static let directory = Fixtures.shippedPresets

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
}
