import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Rendered Markdown in a real terminal (tmux): a streamed answer with a heading, a list, a table and a
/// Swift code block shows rendered; what was on the screen before stays as it was; Ctrl-C in the middle
/// of a code block leaves the terminal in its normal style. `ask` to a pipe and `ask --render` are in
/// BinaryTests.
@Suite("Markdown in the console")
struct MarkdownConsoleTests {
    static func codeStream(lines: Int) -> String {
        "```swift\n" + (1...lines).map { "let value\($0) = \"line \($0)\"" }.joined(separator: "\n") + "\n```\n"
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aStreamedAnswerIsRenderedWithoutRepaintingWhatCameBefore() async throws {
        let route: LoopbackServer.Route = { request in
            let input = String(decoding: request.body, as: UTF8.self)
            if input.contains("slow code") {
                return .sse(
                    Fixtures.textStream(id: "resp_slow", text: Self.codeStream(lines: 400)), pause: .milliseconds(20))
            }
            return .sse(Fixtures.textStream(id: "resp_md", text: Fixtures.markdownPlan), pause: .milliseconds(5))
        }
        try await ConsoleHarness.withConsole(route: route) { tmux, _, _ in
            try await tmux.send("/help", until: "/markdown")
            let before = try tmux.screen().split(separator: "\n", omittingEmptySubsequences: false).dropLast(2)

            try tmux.type("show me the plan")
            // The whole suite runs beside this test: on two cores shared with other work the answer has taken 35 s.
            let screen = try await tmux.waitFor("[usage]", timeout: .seconds(60))
            #expect(screen.contains("# Plan"), "\(screen)")
            #expect(screen.contains("• first step"), "the bold markers are gone: \(screen)")
            #expect(screen.contains("┌──────┬────────┐") && screen.contains("│ grep │ search │"), "\(screen)")
            #expect(
                screen.contains("─── swift") && screen.contains("  let total = items.map(\\.price).reduce(0, +)"),
                "\(screen)")
            #expect(!screen.contains("```") && !screen.contains("|------|"), "no raw Markdown left: \(screen)")
            let colored = try tmux.screen(escapes: true)
            #expect(colored.contains("\u{1B}[35mlet"), "the keyword is coloured: \(colored)")
            // Nothing above the question was redrawn.
            let after = try tmux.screen().split(separator: "\n", omittingEmptySubsequences: false)
            #expect(Array(after.prefix(before.count)) == Array(before), "the scrollback changed")

            // Ctrl-C in the middle of a code block: what was shown stays, and the terminal's style is normal.
            try await tmux.send("slow code please", until: "let value5 = ")
            try tmux.press("C-c")
            try await tmux.waitFor("\n> ", count: 3)
            try tmux.type("typed after", enter: false)
            let last = try tmux.screen(escapes: true).split(separator: "\n").last { $0.contains("typed after") }
            let line = String(try #require(last))
            #expect(
                line.hasSuffix("> typed after") || !line.contains("\u{1B}["),
                "the prompt line carries a style: \(line.debugDescription)")
            #expect(
                !line.contains("\u{1B}[3") && !line.contains("\u{1B}[9"),
                "a colour is still on: \(line.debugDescription)")
        }
    }
}
