import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Console

/// Control characters the model sends never reach a terminal raw, with or without Markdown rendering; a
/// pipe gets the answer's exact text.
@Suite("Rendering a turn: control characters")
struct TurnRendererControlTests {
    static func event(_ json: String) throws -> ResponseStreamEvent {
        ResponseStreamEvent(json: try JSONValue.parse(json))
    }

    static let attack = "clear\\u001b[2J bell\\u0007 csi\\u009b31m clip\\u001b]52;c;eA==\\u0007 cr\\rback"

    static func render(_ options: RenderOptions) throws -> String {
        let output = RecordingOutput()
        var renderer = TurnRenderer(output: output, options: options)
        renderer.render(
            try event(
                #"{"type":"response.reasoning_summary_text.delta","item_id":"r","output_index":0,"summary_index":0,"delta":"think\#(attack)"}"#
            ))
        renderer.render(
            try event(
                #"{"type":"response.output_text.delta","item_id":"m","output_index":1,"content_index":0,"delta":"say \#(attack)\r"}"#
            ))
        renderer.render(
            try event(
                #"{"type":"response.output_text.delta","item_id":"m","output_index":1,"content_index":0,"delta":"\nnext"}"#
            ))
        renderer.render(
            try event(
                #"{"type":"response.refusal.delta","item_id":"m","output_index":1,"content_index":1,"delta":"no\#(attack)"}"#
            ))
        renderer.finish(response: nil)
        return output.text
    }

    @Test(arguments: [false, true])
    func aTerminalSeesPicturesNotControls(markdown: Bool) throws {
        var options = RenderOptions(width: 80, showExtras: true)
        options.markdown = markdown
        let text = try Self.render(options)
        #expect(
            !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
            "\(text.debugDescription)")
        #expect(
            text.contains("say clear␛[2J bell␇ csi\u{FFFD}31m clip␛]52;c;eA==␇ cr␍back\nnext"),
            "\(text.debugDescription)")
        #expect(text.contains("think") && text.contains("[refusal] no"), "\(text.debugDescription)")
    }

    @Test func aPipeGetsTheAnswerExactly() throws {
        let text = try Self.render(RenderOptions())
        #expect(
            text.contains("say clear\u{1B}[2J bell\u{07} csi\u{9B}31m clip\u{1B}]52;c;eA==\u{07} cr\rback\r\nnext"),
            "\(text.debugDescription)")
    }
}
