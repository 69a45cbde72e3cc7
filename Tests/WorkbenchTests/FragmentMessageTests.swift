import Foundation
import Library
import ResponsesAPI
import Testing

@testable import Workbench

/// Issue 49: fragments go into the user's message as parts of their own before the prompt; a preset's input
/// template wraps the prompt alone and is never applied to (or read for placeholders in) a fragment.
@Suite("Fragment messages")
struct FragmentMessageTests {
    let batch = FragmentBatch(fragments: [
        Fragment(source: "a.md", text: "Alpha {{lang}} {{input}}", type: .markdown),
        Fragment(source: "b.md", text: "Beta", type: .markdown),
    ])

    @Test func fragmentsComeBeforeThePromptAndTheParts() {
        let message = batch.message(prompt: "summarize", parts: [["type": "input_image", "image_url": "x"]])
        let content = message[0]?["content"]?.arrayValue ?? []
        #expect(message[0]?["role"] == "user")
        #expect(content.count == 4)
        #expect(content[0]["text"]?.stringValue == batch.fragments[0].block)
        #expect(content[1]["text"]?.stringValue == batch.fragments[1].block)
        #expect(content[2] == ["type": "input_text", "text": "summarize"])
        #expect(content[3]["type"] == "input_image")
    }

    @Test func anInputTemplateWrapsThePromptNeverAFragment() {
        var settings = TurnSettings(model: "m")
        settings.inputTemplate = "Text (plain):\n{{input}}\n"
        let templated = settings.templated(batch.message(prompt: "{{tone}}"))
        let texts = templated[0]?["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts == [batch.fragments[0].block, batch.fragments[1].block, "Text (plain):\n{{tone}}\n"])

        let alone = settings.templated(batch.message(prompt: nil))
        let parts = alone[0]?["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(parts == [batch.fragments[0].block, batch.fragments[1].block, "Text (plain):\n\n"])
    }
}
