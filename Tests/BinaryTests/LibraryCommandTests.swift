import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses library add` as a user runs it: the chunking comes from config.yaml's `library:` with
/// the flags over it, a changed chunking re-cuts an unchanged file, wrong settings are refused with where
/// they came from, --verbose says what each page gave, and stdout and stderr stay plain when they are
/// not a terminal. Its progress line and Ctrl-C on a terminal are in TerminalTests.
@Suite("library add from the command line")
struct LibraryCommandTests {
    let home = TestHome("libcmd")

    func run(_ arguments: [String]) async throws -> Subprocess.Result { try await home.run(["library"] + arguments) }

    func config(_ text: String) throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: home.appendingPathComponent("config.yaml"))
    }

    /// The number of chunks the library holds for its one document.
    func chunks() async throws -> Int {
        let list = try await run(["list", "--json"])
        try #require(list.status == 0, "\(list.stderr)")
        return try #require(JSONValue.parse(Array(list.stdout.utf8))[0]?["chunks"]?.intValue)
    }

    @Test func theConfigFilesChunkingUnderTheFlagsAndAChangeReCutsTheFile() async throws {
        defer { home.remove() }
        let text = home.appendingPathComponent("terns.txt")
        try config("version: 1\nlibrary:\n  chunk_size: 200\n  chunk_overlap: 20\n")
        try (1...60).map { "Sentence \($0) follows the arctic terns over the ocean." }.joined(separator: " ").write(
            to: text, atomically: true, encoding: .utf8)

        let first = try await run(["add", text.path])
        try #require(first.status == 0, "\(first.stderr)")
        let small = try await chunks()
        #expect(small > 10)
        #expect(try await run(["add", text.path]).stdout.contains("[1/1] unchanged \(text.path)"))

        let wider = try await run(["add", text.path, "--chunk-size", "800"])
        #expect(wider.status == 0)
        #expect(
            wider.stdout.contains("[1/1] re-cut \(text.path) with the chunking asked (it was cut 200/20, size/overlap)")
        )
        let large = try await chunks()
        #expect(large < small)
        #expect(!wider.stdout.contains("\u{1B}") && !wider.stderr.contains("\u{1B}"), "not a terminal: plain lines")
    }

    @Test func wrongSettingsAreRefusedWithWhereTheyCameFrom() async throws {
        defer { home.remove() }
        let text = home.appendingPathComponent("a.txt")
        try config("version: 1\nlibrary:\n  chunk_size: 200\n  chunk_overlap: 150\n")
        try "Some words.".write(to: text, atomically: true, encoding: .utf8)
        let overlap = try await run(["add", text.path])
        #expect(overlap.status == 2)
        #expect(
            overlap.stderr.contains(
                "library.chunk_overlap (150) must be at most half of library.chunk_size (200); from \(home.path)/config.yaml (library:)"
            ))
        // The flag wins over the config file, and is then what the message names.
        let fixed = try await run(["add", text.path, "--chunk-overlap", "50"])
        #expect(fixed.status == 0, "\(fixed.stderr)")

        try config("version: 1\nlibrary:\n  chunk_sise: 300\n  ocr: maybe\n")
        let typo = try await run(["add", text.path])
        #expect(typo.status != 0)
        #expect(
            typo.stderr.contains("config.yaml:3:3: library.chunk_sise: unknown key (did you mean library.chunk_size?)"))
        #expect(typo.stderr.contains("config.yaml:4:8: library.ocr"))
        let flag = try await run(["add", text.path, "--chunk-size", "10"])
        #expect(flag.status != 0)
        #expect(flag.stderr.contains("--chunk-size must be at least 50 characters (got 10)"))
    }

    @Test func verboseSaysWhatEachPageGave() async throws {
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let pdf = home.appendingPathComponent("notes.pdf")
        try PDFWriter.text(pages: [["Page one is about otters."], ["Page two is about beavers and their dams."]]).write(
            to: pdf)
        let added = try await run(["add", "--verbose", pdf.path])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout == """
                [1/1] added \(pdf.path) (2 chunks, 2 pages)
                    page 1: 25 characters, 1 chunk
                    page 2: 41 characters, 1 chunk
                Library: 1 added, 0 re-indexed, 0 unchanged, 0 failed.

                """)
    }
}
