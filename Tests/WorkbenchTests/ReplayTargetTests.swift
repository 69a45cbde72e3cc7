import ResponsesAPI
import Testing

@testable import Workbench

/// What `inspect replay --against NAME` names, and the body a replay sends.
@Suite("Replay targets")
struct ReplayTargetTests {
    static let catalog = ProviderCatalog(
        providers: [
            .init(name: "default", baseURL: "https://api.openai.com/v1", headers: [:]),
            .init(name: "local", baseURL: "http://127.0.0.1:8321/v1", headers: [:], model: "openai/echo"),
            .init(name: "bare", baseURL: "http://127.0.0.1:4000/v1", headers: [:]),
        ], source: "config.yaml")

    @Test func providerModelOrBoth() throws {
        #expect(
            try ReplayTarget(parsing: "local", catalog: Self.catalog)
                == ReplayTarget(provider: "local", model: "openai/echo"))
        #expect(try ReplayTarget(parsing: "bare", catalog: Self.catalog) == ReplayTarget(provider: "bare", model: nil))
        #expect(
            try ReplayTarget(parsing: "local:qwen3", catalog: Self.catalog)
                == ReplayTarget(provider: "local", model: "qwen3"))
        #expect(
            try ReplayTarget(parsing: "gpt-4.1", catalog: Self.catalog) == ReplayTarget(provider: nil, model: "gpt-4.1")
        )
        // A fine-tuned model's colons are its own: "ft" is no provider.
        let tuned = "ft:gpt-4.1-mini:acme::B2x"
        #expect(try ReplayTarget(parsing: tuned, catalog: Self.catalog) == ReplayTarget(provider: nil, model: tuned))
        #expect(throws: SettingError.self) { try ReplayTarget(parsing: "local:", catalog: Self.catalog) }
        #expect(throws: SettingError.self) { try ReplayTarget(parsing: "  ", catalog: Self.catalog) }
        #expect(ReplayTarget(provider: "bare", model: nil).words == "provider bare (each exchange's model)")
    }

    @Test func theBodyAskedForWholeWithTheTargetsModel() throws {
        let body: JSONValue = ["model": "a", "input": "hi", "stream": true, "background": true, "temperature": 0.2]
        let sent = try #require(ReplayTarget(provider: nil, model: "b").body(replacing: body.serialized()))
        #expect(try JSONValue.parse(sent) == ["model": "b", "input": "hi", "stream": false, "temperature": 0.2])
        #expect(ReplayTarget(provider: nil, model: "b").body(replacing: Array("[1]".utf8)) == nil)
        let kept = try #require(ReplayTarget(provider: "x", model: nil).body(replacing: body.serialized()))
        #expect(try JSONValue.parse(kept)["model"] == "a")
    }
}
