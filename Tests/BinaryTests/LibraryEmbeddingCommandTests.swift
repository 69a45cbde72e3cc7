import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `library add`, `search` and `reembed` with vectors, as a user runs them: the built-in model (linked
/// into a fresh data directory), no model at all, and a server's `/embeddings` failing halfway.
@Suite("library vectors from the command line")
struct LibraryEmbeddingCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-libvec-\(UUID().uuidString)", isDirectory: true)

    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Subprocess.Result {
        try await Subprocess.openresponses(["library"] + arguments, home: home, environment: extra)
    }

    /// Three notes; the question about the second shares none of its words.
    func notes() throws -> URL {
        let folder = home.appendingPathComponent("notes", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "The espresso machine needs descaling every month; use citric acid and run two empty cycles."
            .write(to: folder.appendingPathComponent("coffee.txt"), atomically: true, encoding: .utf8)
        try "Our cat sleeps on the radiator all winter and refuses dry food after sunset."
            .write(to: folder.appendingPathComponent("pets.txt"), atomically: true, encoding: .utf8)
        try "Quarterly taxes are filed in April, June, September and January with form 1040-ES."
            .write(to: folder.appendingPathComponent("taxes.txt"), atomically: true, encoding: .utf8)
        return folder
    }

    func hits(_ result: Subprocess.Result) throws -> [JSONValue] {
        try JSONValue.parse(Array(result.stdout.utf8)).arrayValue ?? []
    }

    @Test(.enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
    func theBuiltInModelFindsWhatKeywordsMissAndTheEmbedderIsKept() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let model = try #require(InstalledModel.minilm)
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("models"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: home.appendingPathComponent("models/all-MiniLM-L6-v2").path, withDestinationPath: model)
        let folder = try notes()

        let add = try await run(["add", folder.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("Embedded 3 passages with minilm"))
        let question = "where does the kitty nap when it is cold"
        let keyword = try await run(["search", question, "--mode", "keyword", "--json"])
        #expect(
            try hits(keyword).first?["path"]?.stringValue?.hasSuffix("pets.txt") != true,
            "no shared word: keywords miss it")
        let hybrid = try await run(["search", question, "--json", "--k", "3"])
        #expect(hybrid.status == 0, "\(hybrid.stderr)")
        let best = try #require(try hits(hybrid).first)
        #expect(best["path"]?.stringValue?.hasSuffix("pets.txt") == true, "\(hybrid.stdout)")
        #expect(best["semantic_rank"] == 1)
        #expect(best["semantic_score"]?.doubleValue ?? 0 > 0.2)
        // Why it ranks there: convex fusion, its semantic part the best (1 after scaling) at the default weight.
        let why = try #require(best["why"]?.objectValue, "\(hybrid.stdout)")
        #expect(why["fusion"] == "convex")
        #expect(why["semantic"]?["rank"] == 1 && why["semantic"]?["normalised"]?.doubleValue == 1)
        #expect(why["semantic"]?["weight"]?.doubleValue == 0.6 && why["keyword"] == .null)
        #expect(why["reasons"] == [])
        #expect(hybrid.stderr.isEmpty)
        // The offline answer ranks the same way: it quotes the pets note, which shares no word with the question.
        let ask = try await run(["ask", "--offline", question])
        #expect(ask.status == 0, "\(ask.stderr)")
        #expect(ask.stdout.contains("radiator") && ask.stdout.contains("pets.txt"), "\(ask.stdout)")

        // Another embedder than the library's is refused, with what to run.
        let other = try await run(["add", folder.path, "--embedder", "openai:text-embedding-3-small"])
        #expect(other.status == 2)
        #expect(
            other.stderr.contains(
                "the library's vectors come from minilm, not openai:text-embedding-3-small: openresponses library reembed --embedder openai:text-embedding-3-small"
            ))
        // Unchanged files cost nothing, vectors included.
        let again = try await run(["add", folder.path])
        #expect(!again.stdout.contains("Embedded"))

        let dropped = try await run(["reembed", "--embedder", "none"])
        #expect(dropped.stdout.contains("Dropped 3 vectors; search uses keywords."))
        #expect(try hits(try await run(["search", "espresso", "--json"])).first?["semantic_rank"] == .null)
        let back = try await run(["reembed"])
        #expect(
            back.stdout.contains("The library's vectors come from minilm: 3 passages."), "\(back.stdout)\(back.stderr)")
    }

    @Test func withoutTheModelSearchSaysSoOnceAndUsesKeywords() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = try notes()
        let add = try await run(["add", folder.path])
        #expect(add.status == 0)
        #expect(
            add.stderr.contains(
                "warning: passages not embedded: all-MiniLM-L6-v2 is not installed in \(home.path)/models/all-MiniLM-L6-v2 (scripts/install-model.sh installs it); search uses keywords"
            ))
        let search = try await run(["search", "espresso descaling"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("coffee.txt"))
        let notes = search.stderr.split(separator: "\n")
        #expect(
            notes == [
                "note: semantic search needs all-MiniLM-L6-v2, not installed in \(home.path)/models/all-MiniLM-L6-v2 (scripts/install-model.sh installs it): searching by keywords"
            ])
        let semantic = try await run(["search", "espresso", "--mode", "semantic"])
        #expect(semantic.stderr.contains("searching by keywords"))
    }

    @Test func theConfigFileChoosesTheEmbedderAndTheRankingAndAWrongOneIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = try notes()
        let config = home.appendingPathComponent("config.yaml")
        try "version: 1\nlibrary:\n  embedder: none\n  search_mode: keyword\n".write(
            to: config, atomically: true, encoding: .utf8)
        let add = try await run(["add", folder.path])
        #expect(add.status == 0)
        #expect(add.stderr.isEmpty, "embedder none: nothing to warn about")
        let search = try await run(["search", "espresso", "--json"])
        #expect(search.stderr.isEmpty)
        #expect(try hits(search).first?["keyword_rank"] == 1)
        try "version: 1\nlibrary:\n  embedder: word2vec\n".write(to: config, atomically: true, encoding: .utf8)
        let wrong = try await run(["search", "espresso"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("library.embedder: unknown embedder \"word2vec\""))
        #expect(wrong.stderr.contains("config.yaml"))
        try "version: 1\nlibrary:\n  search_mode: fuzzy\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(
            try await run(["search", "espresso"]).stderr.contains(
                "config.yaml:3:16: library.search_mode: 'fuzzy' is not one of hybrid, keyword, semantic"))
    }

    @Test func aServerFailingHalfwayKeepsTheDocumentsAndWhatWasEmbedded() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let calls = LockedCount()
        let server = try await LoopbackServer.start { request in
            guard request.path == "/v1/embeddings" else { return .json(#"{"error":{"message":"no"}}"#, status: 404) }
            if calls.next() > 1 {
                return .json(
                    #"{"error":{"message":"the embedding service is down","type":"server_error"}}"#, status: 400)
            }
            let inputs = (request.jsonBody?["input"] as? [String]) ?? []
            let data = inputs.enumerated().map {
                #"{"object":"embedding","index":\#($0.offset),"embedding":[1,0,\#($0.offset)]}"#
            }
            return .json(#"{"object":"list","data":[\#(data.joined(separator: ","))]}"#)
        }
        defer { Task { await server.stop() } }
        let folder = home.appendingPathComponent("many", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 1...70 {
            try "Note number \(index) about a different subject.".write(
                to: folder.appendingPathComponent("n\(index).txt"), atomically: true, encoding: .utf8)
        }
        let environment = ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-test-loopback"]
        let add = try await run(["add", folder.path, "--embedder", "openai:tiny"], environment: environment)
        #expect(add.status == 1)
        #expect(add.stdout.contains("Library: 70 added"))
        #expect(add.stderr.contains("error: embedding with openai:tiny stopped:"))
        #expect(add.stderr.contains("the embedding service is down"))
        #expect(add.stderr.contains("what was embedded is kept, library reembed goes on"))
        // The first batch (64 texts) was kept: reembed asks only for the other 6.
        let reembed = try await run(["reembed"], environment: environment)
        #expect(reembed.status == 1)
        let last = try #require(server.requests.last?.jsonBody?["input"] as? [String])
        #expect(last.count == 6)
        #expect(server.requests.allSatisfy { $0.header("authorization") == "Bearer sk-test-loopback" })
    }
}

final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
