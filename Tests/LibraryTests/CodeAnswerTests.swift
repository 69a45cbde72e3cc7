import Foundation
import Testing

@testable import Library

/// Code in an extractive answer: a fenced block (Markdown) or a `<pre>` (HTML) goes through the real
/// extractor, chunker and search, and the answer quotes the lines that match as code, in a fenced block
/// under the bullet, never joined into one line of prose; prose around the code is quoted as before.
@Suite("Code in an extractive answer")
struct CodeAnswerTests {
    let files: LibraryFixtures

    init() throws { files = try LibraryFixtures() }

    /// The project's README as it was when the issue was found (its title and "Use" sections): prose, and a
    /// shell block of 31 commands with their comments, three chunks long, so passages begin inside it.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/code/README.md")

    /// The library's answer without a model to each question, `documents` added first.
    func answers(_ questions: [String], _ documents: [(String, String)]) async throws -> [String] {
        let service = try await files.service(adding: documents)
        var answers: [String] = []
        for question in questions { answers.append(try await service.turn(question, k: 5).withoutModel.text) }
        return answers
    }

    /// No line of the answer (nor a footnote's quote) holds two commands: code is never joined into one line.
    func expectNoLineJoinsCode(_ answer: String, commands: [String]) {
        for line in answer.split(separator: "\n") {
            let quoted = line.components(separatedBy: " — “").last ?? ""
            let found = commands.map { quoted.components(separatedBy: $0).count - 1 }.reduce(0, +)
            #expect(found <= 1, "joined across lines of code: \(line)")
        }
    }

    @Test func aPassageBeginningInsideAShellBlockQuotesTheMatchingCommandAsCode() async throws {
        defer { files.remove() }
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        // The block is longer than a chunk: later chunks begin inside it, without its opening fence.
        let chunks = Chunker().chunks(of: TextExtractor.markdownDocument(readme))
        #expect(chunks.contains { $0.text.contains("openresponses history export") && !$0.text.contains("```sh") })
        let answers = try await answers(
            [
                "how do I export a conversation to markdown?",
                "where is the store documented, column by column?",
            ], [("README.md", readme)])
        let answer = answers[0]
        // The command, with its neighbour that also matches, quoted as code under a bullet with its citation.
        #expect(
            answer.contains(
                """
                • [1]
                  ```sh
                  openresponses history list                       # past conversations; history search|show|export|delete ID
                  openresponses history export 1a2b --format md -o chat.md   # turns, tool calls, citations as footnotes, usage
                  ```
                """), "\(answer)")
        expectNoLineJoinsCode(answer, commands: ["openresponses", "export OPENAI"])
        #expect(!answer.contains("error rate openresponses"))
        // Each bullet's footnote names the document and its section, as before.
        #expect(answer.contains("[1] README.md › openresponses › Use — “"))
        // The prose after the block's closing fence, in a passage that began inside the block, is prose.
        #expect(
            answers[1].contains(
                "• The store itself is documented column by column, with example `sqlite3` queries, in"),
            "\(answers[1])")
        expectNoLineJoinsCode(answers[1], commands: ["openresponses", "export OPENAI"])
    }

    /// A page with a long `<pre><code>` of shell commands, entities and highlighting spans in it.
    static let page: String = {
        var commands = ""
        for day in 1...24 {
            commands += "cp ~/.local/share/openresponses/notes-\(day).md /backup/notes/day-\(day).md\n"
        }
        return """
            <!doctype html><html><head><title>Backups</title></head><body>
            <h1>Backing up the library</h1>
            <p>The library is one SQLite file. Copy it while no command writes to it, or use the online backup.</p>
            <pre><code class="language-sh">\(commands)<span class="c"># a consistent copy while the console runs</span>
            sqlite3 ~/.local/share/openresponses/library.sqlite ".backup /tmp/library.sqlite" &amp;&amp; echo done
            </code></pre>
            <p>Restoring is copying the file back while nothing runs.</p>
            </body></html>
            """
    }()

    @Test func aPreBlockKeepsItsLinesAndItsMatchingLinesAreQuotedAsCode() async throws {
        defer { files.remove() }
        let text = HTMLExtractor.document(Self.page).text
        #expect(
            text.contains(
                """
                cp ~/.local/share/openresponses/notes-24.md /backup/notes/day-24.md
                # a consistent copy while the console runs
                sqlite3 ~/.local/share/openresponses/library.sqlite ".backup /tmp/library.sqlite" && echo done
                """), "\(text)")
        #expect(text.contains("The library is one SQLite file. Copy it while no command writes to it"))
        // The `<pre>` is longer than a chunk: the passage with the command begins inside it.
        let chunks = Chunker().chunks(of: HTMLExtractor.document(Self.page))
        #expect(chunks.contains { $0.text.contains("sqlite3") && $0.text.components(separatedBy: "```").count == 2 })
        let answer = try await answers(
            ["how do I make a consistent copy while the console runs?"], [("backup.html", Self.page)])[0]
        #expect(
            answer.contains(
                """
                  ```
                  # a consistent copy while the console runs
                  sqlite3 ~/.local/share/openresponses/library.sqlite ".backup /tmp/library.sqlite" && echo done
                  ```
                """), "\(answer)")
        expectNoLineJoinsCode(answer, commands: ["cp ~", "sqlite3", "# a consistent"])
        #expect(answer.contains("• Restoring is copying the file back while nothing runs."))
    }

    @Test func aCommandIsQuotedOnceThoughTwoPassagesHoldIt() {
        let export = "openresponses history export 1a2b --format md -o chat.md   # a conversation as Markdown"
        let first = "```sh\nopenresponses history list   # past conversations\n\(export)\n```"
        let second = "```sh\n\(export)\n```"
        let hits = [first, second].enumerated().map { index, text in
            SearchHit(
                chunkID: Int64(index + 1), path: "/docs/README.md", title: nil, type: .markdown, page: nil,
                heading: nil, start: 0, end: text.unicodeScalars.count, text: text, score: 1, snippet: text,
                endPage: nil)
        }
        let answer = LibraryTurn(question: "how do I export a conversation to markdown?", hits: hits).withoutModel
        #expect(
            answer.text.hasPrefix(
                """
                • [1]
                  ```sh
                  openresponses history list   # past conversations
                  \(export)
                  ```

                [1] README.md — “openresponses history list # past conversations …”
                """), "\(answer.text)")
        #expect(answer.sources.map(\.chunkID) == [1])
    }

    @Test func aCommentIsQuotedWithTheCommandItDescribes() {
        let text = """
            Conversations are kept in the history.

            ```sh
            # export a conversation as Markdown
            openresponses history export 1a2b --format md -o chat.md
            openresponses history delete 1a2b
            ```
            """
        let hit = SearchHit(
            chunkID: 1, path: "/docs/README.md", title: nil, type: .markdown, page: nil, heading: "Usage",
            start: 0, end: text.unicodeScalars.count, text: text, score: 1, snippet: text, endPage: nil)
        let turn = LibraryTurn(question: "how do I export a conversation to markdown?", hits: [hit])
        let answer = turn.withoutModel.text
        #expect(
            answer.hasPrefix(
                """
                • [1]
                  ```sh
                  # export a conversation as Markdown
                  openresponses history export 1a2b --format md -o chat.md
                  ```
                """), "\(answer)")
        #expect(answer.contains("• Conversations are kept in the history. [1]"))
        #expect(answer.hasSuffix("[1] README.md › Usage — “# export a conversation as Markdown …”\n"), "\(answer)")
    }
}
