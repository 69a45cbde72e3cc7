import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Console

/// The renderer fed real frames (parsed as the client parses them), writing to a recording sink.
@Suite("Rendering a turn")
struct TurnRendererTests {
    static func events(_ fixture: String) throws -> [ResponseStreamEvent] {
        try Fixtures.frames(fixture).map { frame in
            let data = try #require(frame.split(separator: "\n").first { $0.hasPrefix("data: ") }, "\(frame)")
                .dropFirst(6)
            return ResponseStreamEvent(json: try JSONValue.parse(String(data)))
        }
    }

    static func render(_ fixture: String, options: RenderOptions) throws -> String {
        let output = RecordingOutput()
        var renderer = TurnRenderer(output: output, options: options)
        var final: Response?
        for event in try events(fixture) {
            renderer.render(event)
            if let response = event.finalResponse { final = response }
        }
        renderer.finish(response: final)
        return output.text
    }

    @Test func reasoningToolTimelineCitationFootnoteAndUsageInPlainText() throws {
        let text = try Self.render(
            "stream-reasoning-citation.sse", options: RenderOptions(showExtras: true, citations: true))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= 7, "\(text)")
        #expect(lines[0] == "Checking the sources before answering.")
        #expect(lines[1] == "[web search] \"eiffel tower height\" — 2 sources: example.org, facts.example.com")
        #expect(lines[2] == "The Eiffel Tower is 330 metres tall.[1]")
        #expect(lines[3] == "")
        #expect(lines[4] == "[1] Eiffel facts — https://example.org/eiffel")
        #expect(lines[5] == "    “Eiffel Tower is 330 metres tall.”")
        #expect(lines[6].hasPrefix("[usage] input 1,200 (cached 1,000) · output 80 (reasoning 48) · first token "))
        #expect(!text.contains("\u{1B}["))
    }

    /// With Markdown rendering on, the extras are the same lines: the reasoning, the timeline, the answer
    /// with its citation marker, the footnote and the usage line.
    @Test func markdownKeepsCitationsReasoningTimelineAndUsage() throws {
        var options = RenderOptions(width: 80, showExtras: true, citations: true)
        options.markdown = true
        let text = try Self.render("stream-reasoning-citation.sse", options: options)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= 7, "\(text)")
        #expect(lines[0] == "Checking the sources before answering.")
        #expect(lines[1] == "[web search] \"eiffel tower height\" — 2 sources: example.org, facts.example.com")
        #expect(lines[2] == "The Eiffel Tower is 330 metres tall.[1]")
        #expect(lines[4] == "[1] Eiffel facts — https://example.org/eiffel")
        #expect(lines[6].hasPrefix("[usage] input 1,200"))
    }

    @Test func coloursMarkReasoningDimAndToolsInColour() throws {
        let text = try Self.render(
            "stream-reasoning-citation.sse", options: RenderOptions(colors: true, showExtras: true, citations: true))
        #expect(text.contains("\u{1B}[2mChecking"))
        #expect(text.contains("\u{1B}[36m[web search]"))
    }

    @Test func plainOptionsGiveExactlyTheAnswerText() throws {
        let text = try Self.render("stream-reasoning-citation.sse", options: .plain)
        #expect(text == "The Eiffel Tower is 330 metres tall.\n")
    }

    @Test func textWrapsAtTheWidthBetweenWords() throws {
        let text = try Self.render("stream-reasoning-citation.sse", options: RenderOptions(width: 16))
        #expect(text == "The Eiffel Tower\nis 330 metres\ntall.\n")
    }

    /// Every event family at once: the reasoning, the answer with its citation markers, one timeline line
    /// per tool, the error, the footnotes and the usage line, each exactly once and in order.
    @Test func theEveryEventFixtureGivesEachPartOnceInOrder() throws {
        let text = try Self.render(
            "stream-every-event.sse", options: RenderOptions(width: 40, showExtras: true, citations: true))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 25, "\(text)")
        #expect(
            Array(lines[..<23]) == [
                "Thinking about cats.",
                "",
                "Cats purr[1][2][3][4] [1].",
                "[refusal] I can't help with that.",
                #"[function] get_weather({"city":"Paris"})"#,
                "[tool] run_sql: SELECT 1",
                #"[file search] "cats purr" — 1 hit: cats.pdf 0.93"#,
                #"[web search] "why do cats purr" — 1 source: example.org"#,
                "[code interpreter] print(2+2) → 4",
                #"[image] — "a cat""#,
                "[mcp docs] 1 tools: search",
                #"[mcp docs] search({"q":"cats"}) → 3 results"#,
                "[mcp docs] asks to call delete({})",
                "[shell call]",
                "[error] rate_limit_exceeded: Slow down",
                "",
                "[1] cats.pdf",
                "[2] Cats — https://example.org/cats",
                "    “Cats”",
                "[3] plot.png (code interpreter)",
                "    “purr”",
                "    openresponses containers download cntr_1 cfile_1",
                "[4] file file-out",
            ])
        #expect(lines[23].hasPrefix("[usage] input 100 (cached 20) · output 50 (reasoning 12) · first token "))
        #expect(lines[24] == "", "the usage line ends the output, with its line ending")
    }

    @Test func aFunctionCallIsOneTimelineLine() throws {
        let text = try Self.render(
            "stream-function-call.sse", options: RenderOptions(showUsage: false, showExtras: true))
        #expect(text == "[function] local_time({\"timezone\":\"UTC\"})\n")
    }
}
