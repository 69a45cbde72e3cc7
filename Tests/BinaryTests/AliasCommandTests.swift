import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `aliases:` in config.yaml as a user meets them: `--model fast` and a preset's `model: fast` send the real id,
/// which the inspector records; an alias of an alias stops the command with the alias's place in the file.
@Suite("model aliases in the binary")
struct AliasCommandTests {
    let home = TestHome("alias")

    func withServer(_ body: (LoopbackServer, [String: String]) async throws -> Void) async throws {
        // The answer names the model the request asked for, as a server does.
        let server = try await LoopbackServer.start { request in
            .sse(
                Fixtures.textStream(
                    id: "resp_alias", model: request.jsonBody?["model"] as? String ?? "none", text: "ok"))
        }
        defer { Task { await server.stop() } }
        try await body(server, ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-alias-0000"])
    }

    @Test func theModelFlagAndAPresetSendTheAliasesModel() async throws {
        defer { home.remove() }
        try home.write("config.yaml", "version: 1\naliases:\n  fast: gpt-4.1-mini\n  smart: o3\n")
        try home.write("presets/quick.yaml", "version: 1\nname: quick\nmodel: smart\n")
        try await withServer { server, environment in
            let flagged = try await home.run(["ask", "--model", "fast", "hello"], environment: environment)
            #expect(flagged.status == 0, "\(flagged.stderr)")
            #expect(server.requests.last?.jsonBody?["model"] as? String == "gpt-4.1-mini")
            let preset = try await home.run(["ask", "--preset", "quick", "hello"], environment: environment)
            #expect(preset.status == 0, "\(preset.stderr)")
            #expect(server.requests.last?.jsonBody?["model"] as? String == "o3")
            let list = try await home.run(["inspect", "list", "--json"])
            let models = try JSONValue.parse(Array(list.stdout.utf8)).arrayValue?.compactMap {
                $0["model"]?.stringValue
            }
            #expect(Set(models ?? []) == ["gpt-4.1-mini", "o3"], "the inspector records the ids: \(list.stdout)")
        }
    }

    @Test func anAliasOfAnAliasIsAUsageErrorWithItsPlace() async throws {
        defer { home.remove() }
        let config = try home.write("config.yaml", "version: 1\naliases:\n  fast: quick\n  quick: gpt-4.1-mini\n")
        try await withServer { server, environment in
            let result = try await home.run(["ask", "--model", "fast", "hello"], environment: environment)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains(
                    "\(config.path):3:3: aliases.fast: 'quick' is an alias too; an alias points at a model id"),
                "\(result.stderr)")
            #expect(server.requests.isEmpty)
        }
    }
}
