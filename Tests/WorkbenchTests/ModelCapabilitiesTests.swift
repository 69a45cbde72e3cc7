import ResponsesAPI
import Testing
import Workbench

@Suite("Model-aware checks")
struct ModelCapabilitiesTests {
    @Test(
        "families",
        arguments: [
            ("gpt-5.1", ModelCapabilities.Family.reasoning), ("gpt-5-mini-2025-08-07", .reasoning), ("o3", .reasoning),
            ("o4-mini", .reasoning), ("o1-pro", .reasoning), ("gpt-4.1-mini", .nonReasoning), ("gpt-4o", .nonReasoning),
            ("gpt-4o-mini-2024-07-18", .nonReasoning), ("openai/echo", .unknown), ("llama3.1:8b", .unknown),
            ("o3x", .unknown),
        ])
    func families(_ model: String, _ family: ModelCapabilities.Family) {
        #expect(ModelCapabilities.family(of: model) == family)
    }

    @Test func rejectedSettingsAreDroppedWithANoticeAndUnknownModelsKeepEverything() {
        var reasoning = CreateResponseRequest(model: "gpt-5.1", input: "hi")
        reasoning.body["temperature"] = 0.3
        reasoning.body["reasoning"] = ["effort": "high"]
        #expect(
            ModelCapabilities.adjust(&reasoning) == [
                "dropped temperature: gpt-5.1 is a reasoning model, which rejects it"
            ])
        #expect(reasoning.body["temperature"] == nil)
        #expect(reasoning.body["reasoning"] == ["effort": "high"])

        var classic = CreateResponseRequest(model: "gpt-4.1", input: "hi")
        classic.body["reasoning"] = ["effort": "high"]
        classic.body["top_p"] = 0.9
        #expect(ModelCapabilities.adjust(&classic).count == 1)
        #expect(classic.body["reasoning"] == nil)
        #expect(classic.body["top_p"] == 0.9)

        var local = CreateResponseRequest(model: "openai/echo", input: "hi")
        local.body["reasoning"] = ["effort": "high"]
        local.body["temperature"] = 1
        #expect(ModelCapabilities.adjust(&local).isEmpty)
        #expect(local.body.count == 4)
    }
}
