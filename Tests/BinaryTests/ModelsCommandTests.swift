import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses models`: the server's `GET /models` with the config file's aliases and the price table's prices;
/// with no server to ask, the aliases and the price table's models all the same, and status 1.
@Suite("models command")
struct ModelsCommandTests {
    let home = TestHome("models")

    @Test func listsTheServersModelsWithAliasesAndPrices() async throws {
        defer { home.remove() }
        try home.write(
            "config.yaml", "version: 1\naliases:\n  fast: gpt-4.1-mini\n  mini: gpt-4.1-mini\n  gone: gpt-0\n")
        let server = try await LoopbackServer.start { request in
            request.path == "/v1/models"
                ? .json(
                    #"{"object":"list","data":[{"id":"o3","object":"model"},{"id":"gpt-4.1-mini"},{"id":"my-local"}]}"#)
                : .json(#"{"error":{"message":"no route"}}"#, status: 404)
        }
        defer { Task { await server.stop() } }
        let environment = ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-models-0000"]
        let result = try await home.run(["models"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                3 models on default (\(server.baseURL))
                MODEL         ALIASES     INPUT $/1M  CACHED  OUTPUT
                gpt-4.1-mini  fast, mini  0.40        0.10    1.60
                my-local      -           -           -       -
                o3            -           2.00        0.50    8.00
                gpt-0         gone        -           -       -       not listed by the server

                """)
        #expect(server.requests.map(\.path) == ["/v1/models"])
        let json = try await home.run(["models", "--json"], environment: environment)
        let listed = try JSONValue.parse(Array(json.stdout.utf8))
        let first = try #require(listed["models"]?.arrayValue?.first)
        #expect(first["id"] == "gpt-4.1-mini")
        #expect(first["aliases"] == ["fast", "mini"])
        #expect(first["price"]?["cached_input"] == .number(0.1))
        #expect(first["served"] == true)
        #expect(listed["aliases"]?["gone"] == "gpt-0")
        #expect(listed["error"] == .null)
    }

    @Test func withoutAKeyItSaysSoAndStillListsAliasesAndPrices() async throws {
        defer { home.remove() }
        try home.write("config.yaml", "version: 1\naliases:\n  fast: gpt-4.1-mini\n")
        let result = try await home.run(["models"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "error: cannot list the models of default (https://api.openai.com/v1): OPENAI_API_KEY is not set"),
            "\(result.stderr)")
        #expect(result.stdout.contains("gpt-4.1-mini  fast "), "\(result.stdout)")
        #expect(result.stdout.contains("\no3 "), "the price table's models: \(result.stdout)")
        #expect(!result.stdout.contains("not listed"), "a server not asked has listed nothing: \(result.stdout)")
    }
}
