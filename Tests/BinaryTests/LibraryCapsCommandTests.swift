import Foundation
import TestSupport
import Testing

/// The library's resource caps set in config.yaml (issue 43): a file past one is refused naming the cap,
/// the other files are added, and the flag raises it over the file.
@Suite("library caps from config.yaml")
struct LibraryCapsCommandTests {
    let home = TestHome("libcaps")

    func run(_ arguments: [String]) async throws -> Subprocess.Result {
        try await home.run(["library"] + arguments + ["--embedder", "none"])
    }

    @Test func aCapInConfigRefusesAFileAndTheFlagRaisesIt() async throws {
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try Data("version: 1\nlibrary:\n  max_chunks: 2\n  chunk_size: 200\n  chunk_overlap: 0\n".utf8).write(
            to: home.appendingPathComponent("config.yaml"))
        let long = home.appendingPathComponent("long.txt")
        let short = home.appendingPathComponent("short.txt")
        try (1...60).map { "Sentence \($0) follows the arctic terns over the ocean." }.joined(separator: " ").write(
            to: long, atomically: true, encoding: .utf8)
        try "A short note about terns.".write(to: short, atomically: true, encoding: .utf8)
        let capped = try await run(["add", long.path, short.path])
        #expect(capped.stderr.contains(long.path) && capped.stderr.contains("library.max_chunks"), "\(capped.stderr)")
        #expect(capped.stdout.contains("added \(short.path)"), "\(capped.stdout)")
        let raised = try await run(["add", long.path, "--max-chunks", "1000"])
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(raised.stdout.contains(long.path) && raised.stdout.contains("(20 chunks)"), "\(raised.stdout)")
    }
}
