import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `library add --embedder openai:MODEL` against the peer's llama-stack, a real and independently written
/// `/embeddings`: the passages are embedded there, each request is in the inspector, and search ranks
/// with those vectors (the query embedded there too).
@Suite(
    "library embeddings through the peer",
    .enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
struct LibraryEmbeddingPeerTests {
    @Test func addEmbedsThroughThePeerAndSearchUsesThoseVectors() async throws {
        let baseURL = try #require(PeerServer.baseURL)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-libpeer-\(UUID().uuidString)", isDirectory: true)
        let folder = home.appendingPathComponent("notes", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try "Lighthouse keepers trimmed the lamp wicks every evening.".write(
            to: folder.appendingPathComponent("lamps.txt"), atomically: true, encoding: .utf8)
        try "Sourdough starter wants flour and water each morning.".write(
            to: folder.appendingPathComponent("bread.txt"), atomically: true, encoding: .utf8)
        let environment = [
            "OPENRESPONSES_HOME": home.path, "HOME": home.path, "OPENAI_BASE_URL": baseURL,
            "OPENAI_API_KEY": "sk-test-1234", "PATH": "/usr/bin:/bin",
        ]
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
        }
        let model = "openai:" + PeerServer.embeddingModel
        let add = try await run(["library", "add", folder.path, "--embedder", model])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("Embedded 2 passages with \(model)"), "\(add.stdout)")

        let list = try await run(["inspect", "list", "--json"])
        let rows = try JSONValue.parse(Array(list.stdout.utf8)).arrayValue ?? []
        let embeddings = rows.filter { $0["url"]?.stringValue?.hasSuffix("/embeddings") == true }
        #expect(embeddings.count == 1, "\(list.stdout)")
        #expect(embeddings.first?["status"] == 200)
        #expect(!list.stdout.contains("sk-test-1234"))

        let search = try await run(["library", "search", "lamp wicks lighthouse", "--json", "--mode", "semantic"])
        #expect(search.status == 0, "\(search.stderr)")
        let hits = try JSONValue.parse(Array(search.stdout.utf8)).arrayValue ?? []
        #expect(hits.first?["path"]?.stringValue?.hasSuffix("lamps.txt") == true, "\(search.stdout)")
        #expect(hits.first?["semantic_rank"] == 1)
        let after =
            try JSONValue.parse(Array(try await run(["inspect", "list", "--json"]).stdout.utf8)).arrayValue ?? []
        #expect(
            after.filter { $0["url"]?.stringValue?.hasSuffix("/embeddings") == true }.count == 2,
            "the query was embedded by the peer too")
    }
}
