import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Files and vector stores against the real peer (llama-stack keeps real files and stores and searches
/// them): upload three files, make a store of them, search, ask with file_search, delete everything.
@Suite("files and stores against the peer", .enabled(if: DocumentQAPeer.baseURL != nil, "OPENRESPONSES_PEER_URL is not set"))
struct FilesPeerTests {
    @Test func uploadCreateSearchAskDelete() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-files-peer-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let texts = [
            "saturn.txt": "Saturn's rings are made mostly of water ice, with some rock and dust.",
            "bees.txt": "Honey bees communicate the direction of flowers with a waggle dance.",
            "copper.txt": "Copper conducts electricity well and is used in most household wiring.",
        ]
        var paths: [String] = []
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            let url = home.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let environment = [
            "OPENRESPONSES_HOME": home.path, "OPENAI_BASE_URL": DocumentQAPeer.baseURL!, "OPENAI_API_KEY": "sk-test-1234",
            "PATH": "/usr/bin:/bin",
        ]
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
        }

        let upload = try await run(["files", "upload"] + paths + ["--json"])
        #expect(upload.status == 0, "\(upload.stderr)")
        let files = try JSONValue.parse(Array(upload.stdout.utf8)).arrayValue ?? []
        let fileIDs = files.compactMap { $0["id"]?.stringValue }
        #expect(fileIDs.count == 3)

        let create = try await run(["stores", "create", "peer-test-store", "--json"] + fileIDs.flatMap { ["--file", $0] })
        #expect(create.status == 0, "\(create.stderr)")
        let storeID = try #require(try JSONValue.parse(Array(create.stdout.utf8))["id"]?.stringValue)
        let storeFiles = try await run(["stores", "files", storeID, "--json"])
        #expect(try JSONValue.parse(Array(storeFiles.stdout.utf8)).arrayValue?.count == 3)

        let search = try await run(["stores", "search", storeID, "How", "do", "bees", "tell", "where", "flowers", "are?", "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        let hits = try JSONValue.parse(Array(search.stdout.utf8)).arrayValue ?? []
        #expect(hits.first?["file_id"]?.stringValue == fileIDs[0], "bees.txt (uploaded first) is the best match")

        let ask = try await run([
            "ask", "--model", DocumentQAPeer.model, "--set", "file_search.vector_store_ids=\(storeID)", "--json",
            "CALL_TOOL How do bees tell where flowers are?",
        ])
        #expect(ask.status == 0, "\(ask.stderr)")
        let output = try JSONValue.parse(Array(ask.stdout.utf8))["output"]?.arrayValue ?? []
        #expect(output.contains { $0["type"] == "file_search_call" })

        #expect(try await run(["stores", "delete", storeID]).status == 0)
        #expect(try await run(["files", "delete"] + fileIDs).status == 0)
        let stores = try JSONValue.parse(Array(try await run(["stores", "list", "--all", "--json"]).stdout.utf8)).arrayValue ?? []
        #expect(!stores.contains { $0["id"]?.stringValue == storeID })
        let left = try JSONValue.parse(Array(try await run(["files", "list", "--all", "--json"]).stdout.utf8)).arrayValue ?? []
        #expect(!left.contains { fileIDs.contains($0["id"]?.stringValue ?? "") })
    }
}
