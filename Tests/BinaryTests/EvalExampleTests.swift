import Foundation
import TestSupport
import Testing

/// Docs/examples/library-eval.yaml runs as Docs/eval.md says, offline, with no key, against a fresh home:
/// `openresponses library add Docs README.md`, then `openresponses eval Docs/examples/library-eval.yaml`,
/// both from the checkout's root.
@Suite("eval example")
struct EvalExampleTests {
    /// The checkout's root (where Docs/ and README.md are).
    static let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    /// `arguments` run by the built binary from the checkout's root, with the fresh `home` and no key.
    func run(_ arguments: [String], home: TestHome) async throws -> Subprocess.Result {
        let command = "cd \"$1\" && shift && exec \"$@\""
        return try await Subprocess.run(
            "/bin/sh", ["-c", command, "sh", Self.root.path, Subprocess.openresponsesBinary] + arguments,
            environment: ["OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"])
    }

    @Test func theLibraryExampleRunsOfflineAndPasses() async throws {
        let home = TestHome("eval-example")
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let added = try await run(["library", "add", "Docs", "README.md"], home: home)
        #expect(added.status == 0, "\(added.stderr)")
        let result = try await run(["eval", "Docs/examples/library-eval.yaml"], home: home)
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.contains("default"), "\(result.stdout)")
        let json = try await run(["eval", "Docs/examples/library-eval.yaml", "--json"], home: home)
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"citations\""))
    }
}
