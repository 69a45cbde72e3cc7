import Foundation
import TestSupport
import Testing

/// The library in a real terminal: with no key the console opens offline and answers from a document with
/// page citations; with a server, `/library on` sends the passages and the answer's `[n]` become footnotes.
@Suite("The library in the console", .serialized)
struct LibraryConsoleTests {
    static func notes(in home: URL) throws -> URL {
        let url = home.appendingPathComponent("field-notes.pdf")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try PDFWriter.text(pages: [
            ["Penguin Field Notes", "Emperor penguins huddle together to survive the winter storms."],
            ["The colony moved inland in August.", "Krill numbers fell sharply that year."],
        ]).write(to: url)
        return url
    }

    /// The console in tmux with `home` as its data directory and no key nor server in its environment:
    /// typed at the shell's prompt, not yet started.
    static func startOffline(home: URL) async throws -> TmuxSession {
        let tmux = try TmuxSession()
        try await tmux.waitFor("$ ", timeout: .seconds(60))
        try tmux.type(
            "env -u OPENAI_API_KEY -u OPENAI_BASE_URL OPENRESPONSES_HOME='\(home.path)' HOME='\(home.path)' \(Subprocess.openresponsesBinary)"
        )
        return tmux
    }

    @Test func withNoKeyTheConsoleAnswersFromADocumentWithPageCitations() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let pdf = try Self.notes(in: home)
        let tmux = try await Self.startOffline(home: home)
        defer { tmux.kill() }
        try await tmux.waitFor("offline: no OPENAI_API_KEY for https://api.openai.com/v1", timeout: .seconds(60))
        try await tmux.waitFor("\n> ")
        try await tmux.send("/doc \(pdf.path)", until: "Following turns are about field-notes.pdf")
        try tmux.type("how do emperor penguins survive the winter?")
        // The page's lines are one sentence until a full stop: the title line comes with it.
        try await tmux.waitFor(
            "[1] field-notes.pdf p. 1 — “Penguin Field Notes Emperor penguins huddle together to survive the winter storms.”"
        )
        #expect(
            try tmux.screen().contains(
                "• Penguin Field Notes Emperor penguins huddle together to survive the winter storms. [1]"))
        try await tmux.send(
            "when did the colony move inland?", until: "[1] field-notes.pdf p. 2 — “The colony moved inland in August.")
        try tmux.type("/sources")
        try await tmux.waitFor(
            "[1] field-notes.pdf p. 2\nThe colony moved inland in August.\nKrill numbers fell sharply that year.")
        // library.passages bounds the passages an answer comes from: a question both pages match is
        // answered from two, then, with library.passages 1, from one.
        try await tmux.send("penguins and krill?", until: "No model was used", count: 3)
        try await tmux.waitFor("[2] field-notes.pdf p.")
        try await tmux.send("/set library.passages 1", until: "library.passages")
        try await tmux.send("penguins and krill again?", until: "No model was used", count: 4)
        try await tmux.waitFor("[1] field-notes.pdf p.", count: 4)
        let screen = try tmux.screen()
        let last = try #require(screen.range(of: "> penguins and krill again?", options: .backwards))
        #expect(!screen[last.upperBound...].contains("[2] field-notes.pdf"))
        try await tmux.quit()
    }

    @Test(.enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
    func libraryCompareShowsTheThreeRankingsSideBySide() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let pdf = try Self.notes(in: home)
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("models"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: home.appendingPathComponent("models/all-MiniLM-L6-v2").path,
            withDestinationPath: try #require(InstalledModel.minilm))
        let tmux = try await Self.startOffline(home: home)
        defer { tmux.kill() }
        try await tmux.waitFor("\n> ", timeout: .seconds(60))
        try await tmux.send("/doc \(pdf.path)", until: "Following turns are about field-notes.pdf")
        try await tmux.send("/library compare where do the birds go in August", until: "hybrid (")
        try await tmux.waitFor(" 1. A field-notes.pdf p. ")
        let screen = try tmux.screen()
        #expect(screen.contains("keyword (") && screen.contains("semantic ("), "\(screen)")
        try await tmux.send("/library compare", until: "usage: /library compare [--store ID] QUERY")
        try await tmux.quit()
    }

    @Test func libraryOnSendsThePassagesAndTheAnswersMarkersBecomeFootnotes() async throws {
        let route: LoopbackServer.Route = { _ in
            .sse(Fixtures.textStream(id: "resp_lib", text: "They huddle together [1].", previousResponseID: nil))
        }
        let prepare: (inout ConsoleHarness) throws -> Void = { _ = try Self.notes(in: $0.home) }
        try await ConsoleHarness.withConsole(route: route, prepare: prepare) { tmux, server, harness in
            let pdf = harness.home.appendingPathComponent("field-notes.pdf")
            try await tmux.send("/doc \(pdf.path)", until: "Following turns are about field-notes.pdf")
            try await tmux.send(
                "how do emperor penguins survive the winter?",
                until: "[1] field-notes.pdf p. 1 — “Penguin Field Notes Emperor penguins huddle together")
            let input = try #require(server.requests.last?.jsonBody?["input"] as? String)
            #expect(input.hasPrefix("Answer the question using only the numbered passages below"))
            #expect(
                input.contains(
                    "[1] field-notes.pdf p. 1\nPenguin Field Notes\nEmperor penguins huddle together to survive the winter storms."
                ))
            #expect(input.hasSuffix("Question: how do emperor penguins survive the winter?"))
            // /payload shows the request as the turn would send it: the passages with the question.
            let requests = server.requests.count
            try await tmux.send("/payload why do they huddle?", until: "Question: why do they huddle?")
            try await tmux.waitFor("Answer the question using only the numbered passages below", count: 1)
            #expect(server.requests.count == requests, "/payload sends nothing")
            try await tmux.send("/library off", until: "Library off: turns go to the model alone.")
            try await tmux.send("plain question", until: "They huddle together [1].", count: 2)
            #expect(server.requests.last?.jsonBody?["input"] as? String == "plain question")
            try await tmux.quit()
            await server.stop()
        }
    }
}
