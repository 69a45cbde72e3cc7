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
        let (home, folder) = try PeerServer.libraryHome(
            "libpeer", folder: "notes",
            files: [
                "lamps.txt": PeerServer.lampNote, "bread.txt": "Sourdough starter wants flour and water each morning.",
            ])
        defer { home.remove() }
        let model = "openai:" + PeerServer.embeddingModel
        let add = try await home.run(["library", "add", folder.path, "--embedder", model])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("Embedded 2 passages with \(model)"), "\(add.stdout)")

        let list = try await home.run(["inspect", "list", "--json"])
        let rows = try JSONValue.parse(Array(list.stdout.utf8)).arrayValue ?? []
        let embeddings = rows.filter { $0["url"]?.stringValue?.hasSuffix("/embeddings") == true }
        #expect(embeddings.count == 1, "\(list.stdout)")
        #expect(embeddings.first?["status"] == 200)
        #expect(!list.stdout.contains("sk-test-1234"))

        let search = try await home.run(["library", "search", "lamp wicks lighthouse", "--json", "--mode", "semantic"])
        #expect(search.status == 0, "\(search.stderr)")
        let hits = try JSONValue.parse(Array(search.stdout.utf8)).arrayValue ?? []
        #expect(hits.first?["path"]?.stringValue?.hasSuffix("lamps.txt") == true, "\(search.stdout)")
        #expect(hits.first?["semantic_rank"] == 1)
        let after =
            try JSONValue.parse(Array(try await home.run(["inspect", "list", "--json"]).stdout.utf8)).arrayValue ?? []
        #expect(
            after.filter { $0["url"]?.stringValue?.hasSuffix("/embeddings") == true }.count == 2,
            "the query was embedded by the peer too")
    }
}
