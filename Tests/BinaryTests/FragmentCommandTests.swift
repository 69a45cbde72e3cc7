import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49: `ask -f PATH|URL|-` (the built binary against the loopback server). Each distinct text goes
/// once, as an `input_text` part naming its source and hash before the prompt; a URL is fetched from
/// another server without the API key and its HTML read as text; a source that cannot be read is a usage
/// error naming it, and nothing is sent; the data directory keeps one file per distinct text; history
/// shows each turn's fragments by source and hash.
@Suite("ask -f: fragments")
struct FragmentCommandTests {
    static let echo: LoopbackServer.Route = { _ in .sse(Fixtures.textStream(id: "resp_frag", text: "seen")) }

    /// Runs the binary in `directory` (relative fragment paths are read from there).
    func run(_ harness: ConsoleHarness, in directory: URL, _ arguments: [String], stdin: [UInt8]? = nil)
        async throws -> Subprocess.Result
    {
        try await Subprocess.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", directory.path, Subprocess.openresponsesBinary] + arguments,
            environment: harness.variables, stdinBytes: stdin)
    }

    func workFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-fragments-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The text parts of the last request's user message.
    func sentParts(_ harness: ConsoleHarness) throws -> [String] {
        let body = try JSONValue.parse(try #require(harness.server.requests.last?.body))
        return (body["input"]?[0]?["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
    }

    @Test func eachDistinctTextIsSentOnceWithItsSourceAndKeptOnce() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let folder = try workFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "Alpha notes.\n".write(to: folder.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "Beta notes.\n".write(to: folder.appendingPathComponent("b.md"), atomically: true, encoding: .utf8)
        try "Alpha notes.\n".write(to: folder.appendingPathComponent("a-copy.md"), atomically: true, encoding: .utf8)

        let asked = try await run(
            harness, in: folder,
            ["ask", "-f", "a.md", "-f", "b.md", "-f", "a-copy.md", "--fragment", "a.md", "summarize"]
        )
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("note: fragment a-copy.md: the same text as a.md (sha256 "), "\(asked.stderr)")
        #expect(harness.server.requests.count == 1)
        let parts = try sentParts(harness)
        #expect(parts.count == 3, "\(parts)")
        #expect(parts.first?.hasPrefix("<fragment source=\"a.md\" sha256=\"") == true, "\(parts)")
        #expect(parts.first?.hasSuffix("\">\nAlpha notes.\n</fragment>") == true, "\(parts)")
        #expect(parts.dropFirst().first?.hasPrefix("<fragment source=\"b.md\" sha256=\"") == true, "\(parts)")
        #expect(parts.last == "summarize")
        #expect(parts.filter { $0.contains("Alpha notes.") }.count == 1)

        // The data directory keeps one file per distinct text, whatever the number of commands.
        _ = try await run(harness, in: folder, ["ask", "-f", "a-copy.md", "again"])
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: harness.home.appendingPathComponent("fragments").path)
        #expect(kept.filter { $0.hasSuffix(".txt") }.count == 2, "\(kept)")

        // History shows which fragments each turn used, by source and hash, not their text.
        let list = try await harness.run(["history", "list", "--json"])
        let sessions = try JSONValue.parse(Array(list.stdout.utf8)).arrayValue ?? []
        let shown = try await harness.run(["history", "export", try #require(sessions.last?["id"]?.stringValue)])
        #expect(shown.stdout.contains("[fragment: a.md · sha256 "), "\(shown.stdout)")
        #expect(shown.stdout.contains("[fragment: b.md · sha256 ") && !shown.stdout.contains("Alpha notes."))
        let json = try await harness.run(
            ["history", "export", try #require(sessions.last?["id"]?.stringValue), "--format", "json"])
        let fragments = try JSONValue.parse(Array(json.stdout.utf8))["turns"]?[0]?["fragments"]?.arrayValue
        #expect(fragments?.compactMap { $0["source"]?.stringValue } == ["a.md", "b.md"], "\(json.stdout)")
    }

    @Test func aURLIsFetchedWithoutTheKeyAndItsHTMLReadAsText() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let html =
            "<html><head><title>T</title><script>steal()</script></head><body><p>Fish &amp; chips</p></body></html>"
        let pages = try await LoopbackServer.start { request in
            request.path == "/page.html"
                ? Reply(status: 200, headers: [("Content-Type", "text/html")], parts: [.bytes(Array(html.utf8))])
                : Reply(status: 404, parts: [.bytes(Array("no".utf8))])
        }
        defer { Task { await pages.stop() } }
        let address = "http://127.0.0.1:\(pages.port)/page.html"
        let asked = try await harness.run(["ask", "-f", address, "what is on the menu"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let parts = try sentParts(harness)
        #expect(parts.first?.hasPrefix("<fragment source=\"\(address)\" sha256=\"") == true, "\(parts)")
        #expect(parts.first?.contains("Fish & chips") == true && parts.first?.contains("<p>") == false, "\(parts)")
        #expect(parts.first?.contains("steal()") == false)
        let fetched = try #require(pages.requests.first)
        #expect(fetched.method == "GET" && fetched.header("Authorization") == nil, "\(fetched.headers)")
        #expect(!fetched.headers.contains { $0.1.contains(consoleTestKey) })

        let missing = "http://127.0.0.1:\(pages.port)/gone.html"
        let refused = try await harness.run(["ask", "-f", missing, "what is on the menu"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("error: fragment \(missing): the server answered HTTP 404: nothing was sent"))
        #expect(harness.server.requests.count == 1, "a second request was sent")
    }

    @Test func aMissingFileIsAUsageErrorNamingItAndNothingIsSent() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let folder = try workFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "here".write(to: folder.appendingPathComponent("here.md"), atomically: true, encoding: .utf8)
        let missing = try await run(harness, in: folder, ["ask", "-f", "here.md", "-f", "nowhere.md", "hello"])
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("error: fragment nowhere.md: no such file: nothing was sent"), "\(missing.stderr)")
        #expect(harness.server.requests.isEmpty, "the server saw a request")
        #expect(!FileManager.default.fileExists(atPath: harness.home.appendingPathComponent("fragments").path))
    }

    /// `-f -` reads stdin as a fragment (not as piped context); fragments count toward the input limit.
    @Test func stdinAsAFragmentAndTheInputLimit() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let asked = try await harness.run(["ask", "-f", "-", "explain"], stdin: Array("piped {{name}} text\n".utf8))
        #expect(asked.status == 0, "\(asked.stderr)")
        let parts = try sentParts(harness)
        #expect(parts.count == 2 && parts.first?.hasPrefix("<fragment source=\"stdin\" sha256=\"") == true, "\(parts)")
        #expect(parts.first?.contains("\npiped {{name}} text\n</fragment>") == true && parts.last == "explain")

        try "version: 1\nconsole:\n  max_input_tokens: 100\n".write(
            to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let large = [UInt8](repeating: UInt8(ascii: "c"), count: 404)
        let refused = try await harness.run(["ask", "-f", "-", "count"], stdin: large)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("fragment stdin: 404 bytes of text, about 101 tokens")
                && refused.stderr.contains("nothing was sent"), "\(refused.stderr)")
        #expect(harness.server.requests.count == 1, "the refused one was sent")
    }
}
