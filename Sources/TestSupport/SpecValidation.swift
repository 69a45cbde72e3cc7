import Foundation
import ResponsesAPI

/// Bodies checked against OpenAI's CreateResponse schema (`../shared/conformance/openapi`) with python3's
/// jsonschema (`scripts/validate-create-response.py`); `available` when both are here.
public enum SpecValidation {
    public static var spec: URL? { Fixtures.conformanceDirectory?.appendingPathComponent("openapi/openapi.json") }
    static let script = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/validate-create-response.py")

    /// python3 from PATH, when it has jsonschema.
    static let pythonWorks: Bool = {
        let check = try? Subprocess.runBlocking(
            "/usr/bin/env", ["python3", "-c", "import jsonschema"], environment: ProcessInfo.processInfo.environment)
        return check?.status == 0
    }()

    public static let available = spec != nil && pythonWorks

    /// The validator's complaints, empty when every body is valid.
    /// Runs python on a thread of its own (Subprocess.run): blocking a concurrency-pool thread for the
    /// seconds jsonschema takes would stall every other test's loopback traffic on a 2-core machine.
    public static func validate(_ bodies: [JSONValue]) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, body) in bodies.enumerated() {
            let url = directory.appendingPathComponent("body-\(index).json")
            try Data(body.serialized()).write(to: url)
            paths.append(url.path)
        }
        guard let spec else { throw SubprocessError("no OpenAPI spec: ../shared/conformance/openapi is absent") }
        let result = try await Subprocess.run(
            "/usr/bin/env", ["python3", script.path, spec.path] + paths,
            environment: ProcessInfo.processInfo.environment)
        return result.stdout + result.stderr
    }
}
