import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The retrieval workbench against the peer's llama-stack, whose vector stores and search are a real,
/// independently written implementation: a folder of text, Markdown and PDF pushed with its attributes,
/// compared and evaluated in four columns, and pushed again for nothing.
@Suite(
    "retrieval workbench against the peer",
    .enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
struct LibraryWorkbenchPeerTests {
    @Test func pushCompareEvalAndASecondPushThatUploadsNothing() async throws {
        let baseURL = try #require(PeerServer.baseURL)
        let (home, folder) = try PeerServer.libraryHome(
            "bench", folder: "docs",
            files: [
                "lamps.txt": PeerServer.lampNote,
                "bread.md": "# Bread\n\nSourdough starter wants flour and water each morning.\n",
            ])
        defer { home.remove() }
        try PDFWriter.text(pages: [["Tide tables give the height of high water at each port."]], title: "Tides")
            .write(to: folder.appendingPathComponent("tides.pdf"))
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await home.run(["library"] + arguments)
        }
        let add = try await run(["add", folder.path, "--embedder", "openai:" + PeerServer.embeddingModel])
        try #require(add.status == 0, "\(add.stderr)")

        let name = "workbench-\(UUID().uuidString.prefix(8))"
        let push = try await run(["push", "--new", name, "--chunking", "static:200:50"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stdout.contains(": 3 pushed, 0 already there, 0 failed."), "\(push.stdout)")
        let storeID = try #require(push.stdout.split(separator: " ").first { $0.hasPrefix("vs_") }.map(String.init))
        defer { Task { _ = try? await DocumentQAPeer.curl(["-X", "DELETE", "\(baseURL)/vector_stores/\(storeID)"]) } }

        // The files and their attributes, as the store lists them.
        let listed = try JSONValue.parse(
            Array(try await DocumentQAPeer.curl(["\(baseURL)/vector_stores/\(storeID)/files"]).utf8))
        let attributes = (listed["data"]?.arrayValue ?? []).compactMap { $0["attributes"] }
        #expect(
            Set(attributes.compactMap { $0["path"]?.stringValue })
                == Set(["lamps.txt", "bread.md", "tides.pdf"].map { folder.appendingPathComponent($0).path }))
        let pdf = try #require(attributes.first { $0["type"] == "pdf" })
        #expect(pdf["page_count"]?.intValue == 1)
        #expect(pdf["title"] == "Tides")
        #expect(attributes.allSatisfy { $0["sha256"]?.stringValue?.count == 64 })

        let compare = try await run(["compare", "lamp wicks", "--store", storeID, "--k", "3"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let header = try #require(compare.stdout.split(separator: "\n").first)
        for column in ["keyword (", "semantic (", "hybrid (", "store \(storeID.prefix(8))"] {
            #expect(header.contains(column), "\(compare.stdout)")
        }
        #expect(compare.stdout.contains(" 1. A lamps.txt"))

        let queries = home.appendingPathComponent("queries.jsonl")
        try #"{"query": "lamp wicks", "paths": ["lamps.txt"]}"#.appending("\n").write(
            to: queries, atomically: true, encoding: .utf8)
        let eval = try await run(["eval", queries.path, "--store", storeID, "--json"])
        #expect(eval.status == 0, "\(eval.stderr)")
        let rankings = try JSONValue.parse(Array(eval.stdout.utf8))["rankings"]?.objectValue ?? [:]
        #expect(Set(rankings.keys) == ["keyword", "semantic", "hybrid", "store \(storeID)"])
        #expect(rankings["keyword"]?["mrr"] == 1)

        let again = try await run(["push", "--store", storeID])
        #expect(again.stdout.contains(": 0 pushed, 3 already there, 0 failed."), "\(again.stdout)")
    }
}
