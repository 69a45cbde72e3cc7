import Foundation
import TestSupport
import Testing

/// `ask` to a pipe keeps the answer's exact Markdown; `ask --render` renders it (without colour under
/// NO_COLOR). The console's rendering in a real terminal is in TerminalTests.
@Suite("Markdown in the console")
struct MarkdownConsoleTests {
    @Test func askToAPipeWritesTheExactTextAndRenderRenders() async throws {
        let server = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_md", text: Fixtures.markdownPlan))
        }
        defer { Task { await server.stop() } }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let plain = try await harness.run(["ask", "plan"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == Fixtures.markdownPlan + "\n")
        var variables = harness.variables
        variables["NO_COLOR"] = "1"
        variables["COLUMNS"] = "50"
        let rendered = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--render", "plan"], environment: variables)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(
            rendered.stdout.contains("• first step") && rendered.stdout.contains("│ grep │ search │"),
            "\(rendered.stdout)")
        #expect(!rendered.stdout.contains("\u{1B}"), "NO_COLOR: no escape code")
        variables["NO_COLOR"] = nil
        let colored = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--render", "plan"], environment: variables)
        #expect(colored.stdout.contains("\u{1B}[1mfirst\u{1B}[0m"), "\(colored.stdout.debugDescription)")
    }
}
