import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `providers check` against the peer's llama-stack and LiteLLM tells which keeps a chained turn. The named
/// providers against loopback servers are in BinaryTests.
@Suite("named providers")
struct ProvidersTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-prov-\(UUID().uuidString)", isDirectory: true)

    @Test(.enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
    func checkTellsWhichPeerKeepsAChainedTurn() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let stack = try #require(PeerServer.baseURL)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let config = home.appendingPathComponent("config.yaml")
        try PeerServer.providersConfig(stack: stack).write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let check = try await Subprocess.openresponses(
            ["providers", "check", "--json"], home: home, environment: ["LITELLM_KEY": "sk-test-1234"])
        let reports = try JSONValue.parse(Array(check.stdout.utf8)).arrayValue ?? []
        let byName = Dictionary(
            uniqueKeysWithValues: reports.compactMap { report in report["name"]?.stringValue.map { ($0, report) } })
        #expect(byName["stack"]?["chained_turn_kept"] == true, "\(check.stdout)")
        #expect(byName["stack"]?["response"]?["ok"] == true)
        #expect(byName["stack"]?["stream"]?["ok"] == true)
        #expect(byName["stack"]?["embeddings"]?["ok"] == true)
        #expect(byName["litellm"]?["chained_turn_kept"] == false, "\(check.stdout)")
        #expect(byName["default"]?["models_error"] != nil, "no OPENAI_API_KEY here")
        let table = try await Subprocess.openresponses(["providers", "check", "stack"], home: home)
        #expect(table.stdout.contains("kept (input_items)"))
    }
}
