import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Taking conversations away: `/export` in a real terminal writes the conversation (a web search, a
/// citation, a code answer) as Markdown matching a golden file; `history list|search|show|export|delete`
/// on the command line; `/copy` through OSC 52 reaches tmux's clipboard; `/save code N` writes the block.
@Suite("conversations taken away")
struct ConversationExportTests {
    static let second =
        "Here is the code:\n\n```swift\nprint(\"hello\")\n```\n\nAnd a shell line:\n\n```sh\necho done\n```"

    static func route(_ counter: Counter) -> LoopbackServer.Route {
        { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"):
                if counter.next() == 1 { return .sseFixture("stream-reasoning-citation.sse") }
                return .sse(Fixtures.textStream(id: "resp_two", text: Self.second, previousResponseID: "resp_r1"))
            case ("DELETE", let path) where path.hasPrefix("/v1/responses/"):
                return .json(#"{"id":"\#(path.dropFirst(14))","object":"response.deleted","deleted":true}"#)
            default:
                return .json(#"{"error":{"message":"unexpected"}}"#, status: 404)
            }
        }
    }

    /// The export with what changes from run to run (the session's id and the time) replaced.
    static func normalized(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("# Conversation ") { return "# Conversation SESSION" }
            if line.hasPrefix("- Started: ") { return "- Started: TIME" }
            return String(line)
        }.joined(separator: "\n")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func exportCopySaveAndHistory() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route(Counter()))
        defer { harness.close() }
        let server = harness.server
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        try await tmux.send("cite the weather", until: "[usage]")
        try await tmux.send("show me code", until: "[usage]", count: 2)

        let exported = harness.home.appendingPathComponent("conversation.md")
        try await tmux.send("/export \(exported.path)", until: "to \(exported.path).")
        let markdown = try String(contentsOf: exported, encoding: .utf8)
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/export/conversation.md")
        if ProcessInfo.processInfo.environment["OPENRESPONSES_UPDATE_GOLDEN"] == "1" {
            try Self.normalized(markdown).write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(Self.normalized(markdown) == (try String(contentsOf: golden, encoding: .utf8)), "\(markdown)")

        // /copy code 2 reaches the clipboard (tmux's buffer), /save code 1 a file.
        try await tmux.send("/copy code 2", until: "Copied code block 2 (sh) (9 characters) to the clipboard.")
        #expect(try tmux.tmux(["show-buffer"]) == "echo done")
        let saved = harness.home.appendingPathComponent("hello.swift")
        try await tmux.send("/save code 1 \(saved.path)", until: "Saved code block 1 (swift) to")
        #expect(try String(contentsOf: saved, encoding: .utf8) == "print(\"hello\")\n")
        try await tmux.send("/copy code 3", until: "error: the last answer has 2 code blocks (1-2), not 3")
        try tmux.type("/quit")

        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await harness.run(arguments)
        }
        let list = try await run(["history", "list", "--json"])
        let sessions = try #require(try JSONValue.parse(Array(list.stdout.utf8)).arrayValue)
        let id = try #require(sessions.first?["id"]?.stringValue)
        #expect(sessions.count == 1)
        let found = try await run(["history", "search", "shell", "line"])
        #expect(found.status == 0 && found.stdout.contains(String(id.prefix(8))), "\(found.stdout)\(found.stderr)")
        let missing = try await run(["history", "search", "zebra"])
        #expect(missing.status != 0 && missing.stdout.contains("No conversation mentions zebra"))
        let shown = try await run(["history", "show", String(id.prefix(6))])
        #expect(shown.stdout == markdown, "show to a pipe prints the export's Markdown")
        let json = try await run(["history", "export", id, "--format", "json"])
        let turns = try #require(try JSONValue.parse(Array(json.stdout.utf8))["turns"]?.arrayValue)
        #expect(turns.count == 2)
        #expect(turns[1]["request"]?["previous_response_id"]?.stringValue == "resp_r1", "the items as sent")
        #expect(turns[0]["response"]?["output"]?.arrayValue?.count == 3, "the items as received")

        // On a terminal, show renders the Markdown, unless config.yaml turns console.markdown off.
        let env = harness.variables.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        try await tmux.send(
            "clear; env \(env) \(Subprocess.openresponsesBinary) history show \(id.prefix(8))", until: "─── swift")
        try "version: 1\nconsole:\n  markdown: false\n".write(
            to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try await tmux.send(
            "clear; env \(env) \(Subprocess.openresponsesBinary) history show \(id.prefix(8))", until: "```swift")

        let refused = try await run(["history", "delete", id, "--server"])
        #expect(refused.status == 2 && refused.stderr.contains("pass --yes"), "no terminal to ask on")
        let deleted = try await run(["history", "delete", id, "--server", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(
            deleted.stdout.contains("deleted response resp_r1") && deleted.stdout.contains("deleted response resp_two"))
        #expect(
            server.requests.filter { $0.method == "DELETE" }.map(\.path).sorted() == [
                "/v1/responses/resp_r1", "/v1/responses/resp_two",
            ])
        let after = try await run(["history", "show", id])
        #expect(after.status != 0 && after.stderr.contains("no conversation \(id)"), "\(after.stderr)")
    }
}
