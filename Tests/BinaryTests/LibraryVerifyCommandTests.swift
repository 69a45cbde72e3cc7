import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `library ask --verify` as a user runs it: a model's answer (the loopback server's) with one fabricated
/// sentence among cited ones has that sentence flagged and the rest passing, in text and in `--json`; the
/// answer without a model passes its own check. The exit status stays 0: the check is information.
@Suite("library ask --verify from the command line")
struct LibraryVerifyCommandTests {
    let home = TestHome("libverify")

    static let note = """
        SQLite's write-ahead log keeps changes in a separate WAL file next to the database. A checkpoint copies \
        the pages from the WAL back into the database file. By default a checkpoint runs automatically when the \
        WAL reaches 1000 pages, and readers never block writers while it runs.
        """

    static let answer = """
        Here is what your notes say:

        SQLite keeps changes in a separate write-ahead log file [1]. A checkpoint copies the WAL's pages back \
        into the database file [1]. The Eiffel Tower was painted green in 1889 by a team of Roman sailors [1]. \
        Checkpoints run on their own once the WAL holds 1000 pages [1].
        """

    /// The note added, with the built-in model when it is installed (else the check reads the words alone).
    func library() async throws {
        if let model = InstalledModel.minilm {
            try FileManager.default.createDirectory(
                at: home.appendingPathComponent("models"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: home.appendingPathComponent("models/all-MiniLM-L6-v2").path, withDestinationPath: model)
        }
        let note = try home.write("notes/wal.txt", Self.note)
        let add = try await home.run(["library", "add", note.path])
        try #require(add.status == 0, "\(add.stderr)")
    }

    @Test func aModelsAnswerWithOneFabricatedSentenceHasItFlaggedAndTheRestPassing() async throws {
        defer { home.remove() }
        try await library()
        let server = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_verify", text: Self.answer))
        }
        defer { Task { await server.stop() } }
        let environment = ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-verify-0000"]
        let question = ["library", "ask", "--verify", "how does the WAL checkpoint work"]

        let text = try await home.run(question, environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("The Eiffel Tower was painted green"), "the answer first: \(text.stdout)")
        #expect(text.stdout.contains("1 of 4 sentences flagged."), "\(text.stdout)")
        let flagged = text.stdout.split(separator: "\n").filter {
            $0.hasPrefix("  unsupported") || $0.hasPrefix("  uncited")
        }
        #expect(flagged.count == 1, "\(text.stdout)")
        #expect(
            flagged.first?.contains("The Eiffel Tower was painted green in 1889 by a team of Roman sailors.") == true)
        #expect(text.stdout.contains("  3 supported (--verbose lists them)."), "\(text.stdout)")

        let verbose = try await home.run(question + ["--verbose"], environment: environment)
        #expect(verbose.stdout.contains("  supported [1] score"), "\(verbose.stdout)")
        #expect(verbose.stdout.contains("closest in [1]: “"), "\(verbose.stdout)")

        let json = try await home.run(question + ["--json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONValue.parse(Array(json.stdout.utf8))
        #expect(object["answer"]?.stringValue == Self.answer)
        #expect(object["model"] == .bool(true))
        #expect(object["sources"]?[0]?["location"]?.stringValue?.hasSuffix("wal.txt") == true)
        let verification = try #require(object["verification"])
        #expect(verification["flagged"]?.intValue == 1)
        #expect(verification["supported"]?.intValue == 3)
        let verdicts = verification["sentences"]?.arrayValue?.compactMap { $0["verdict"]?.stringValue }
        #expect(verdicts == ["supported", "supported", "unsupported", "supported"])
    }

    /// The console (`chat` reading piped lines): `/verify` after a library turn flags the fabricated sentence;
    /// after a turn to the model alone there is nothing to check against.
    @Test func slashVerifyChecksTheLastLibraryAnswerAndSaysWhenThereIsNone() async throws {
        defer { home.remove() }
        try await library()
        let server = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_verify", text: Self.answer))
        }
        defer { Task { await server.stop() } }
        let environment = [
            "OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin",
            "OPENAI_BASE_URL": server.baseURL,
            "OPENAI_API_KEY": "sk-verify-0000",
        ]
        let lines = [
            "/verify", "/library on", "how does the WAL checkpoint work", "/verify", "/library off", "hello", "/verify",
            "/library offline", "when does a checkpoint run", "/verify",
        ]
        let console = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["chat"], environment: environment,
            stdin: lines.joined(separator: "\n") + "\n")
        #expect(console.status == 0, "\(console.stderr)")
        let out = console.stdout
        let none = try #require(out.range(of: "No answer to check yet"), "\(out)")
        let checked = try #require(out.range(of: "Citations checked ("), "\(out)")
        let alone = try #require(out.range(of: "The last answer came from the model alone"), "\(out)")
        #expect(none.lowerBound < checked.lowerBound && checked.lowerBound < alone.lowerBound)
        #expect(out.contains("1 of 4 sentences flagged."), "\(out)")
        #expect(out.contains("The Eiffel Tower was painted green in 1889 by a team of Roman sailors."))
        // Answered without a model: its sentences are the passages' own, and pass.
        let offline = try #require(out.range(of: "Citations checked (", options: .backwards))
        #expect(offline.lowerBound > alone.lowerBound)
        #expect(out[offline.lowerBound...].contains(": 0 of "), "\(out)")
    }

    @Test func theAnswerWithoutAModelPassesItsOwnCheck() async throws {
        defer { home.remove() }
        try await library()
        let asked = try await home.run(["library", "ask", "--offline", "--verify", "when does a checkpoint run"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("No model was used"), "\(asked.stdout)")
        #expect(asked.stdout.contains(" 0 of "), "nothing flagged: \(asked.stdout)")
        #expect(!asked.stdout.contains("  unsupported") && !asked.stdout.contains("  uncited"), "\(asked.stdout)")
    }
}
