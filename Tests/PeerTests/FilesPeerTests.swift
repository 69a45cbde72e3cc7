import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Files and vector stores against the real peer (llama-stack keeps real files and stores and searches
/// them): upload three files, make a store of them, search, ask with file_search, delete everything; and
/// one file's whole life: download, a store filled one file at a time, shown, renamed, emptied.
@Suite(
    "files and stores against the peer",
    .enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
struct FilesPeerTests {
    /// A data directory of its own, and the binary pointed at the peer.
    struct Workspace {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-files-peer-\(UUID().uuidString)", isDirectory: true)
        let environment: [String: String]

        init() throws {
            let baseURL = try #require(PeerServer.baseURL)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            environment = [
                "OPENRESPONSES_HOME": home.path, "OPENAI_BASE_URL": baseURL, "OPENAI_API_KEY": "sk-test-1234",
                "PATH": "/usr/bin:/bin",
            ]
        }

        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
        }

        /// Runs a command with `--json`, expects it to succeed, and returns its output parsed.
        func json(_ arguments: [String]) async throws -> JSONValue {
            let result = try await run(arguments + ["--json"])
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONValue.parse(Array(result.stdout.utf8))
        }

        func file(_ name: String, _ text: String) throws -> String {
            let url = home.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        func remove() { try? FileManager.default.removeItem(at: home) }
    }

    @Test func uploadCreateSearchAskDelete() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let paths = [
            try workspace.file("bees.txt", "Honey bees communicate the direction of flowers with a waggle dance."),
            try workspace.file("copper.txt", "Copper conducts electricity well and is used in most household wiring."),
            try workspace.file("saturn.txt", "Saturn's rings are made mostly of water ice, with some rock and dust."),
        ]

        let files = try await workspace.json(["files", "upload"] + paths).arrayValue ?? []
        let fileIDs = files.compactMap { $0["id"]?.stringValue }
        try #require(fileIDs.count == 3)

        let create = try await workspace.json(
            ["stores", "create", "peer-test-store"] + fileIDs.flatMap { ["--file", $0] })
        let storeID = try #require(create["id"]?.stringValue)
        #expect(try await workspace.json(["stores", "files", storeID]).arrayValue?.count == 3)

        let hits =
            try await workspace.json([
                "stores", "search", storeID, "How", "do", "bees", "tell", "where", "flowers", "are?",
            ]).arrayValue ?? []
        #expect(hits.first?["file_id"]?.stringValue == fileIDs[0], "bees.txt (uploaded first) is the best match")

        let answer = try await workspace.json([
            "ask", "--model", PeerServer.model, "--set", "file_search.vector_store_ids=\(storeID)",
            "CALL_TOOL How do bees tell where flowers are?",
        ])
        #expect((answer["output"]?.arrayValue ?? []).contains { $0["type"] == "file_search_call" })

        #expect(try await workspace.run(["stores", "delete", storeID]).status == 0)
        #expect(try await workspace.run(["files", "delete"] + fileIDs).status == 0)
        let stores = try await workspace.json(["stores", "list", "--all"]).arrayValue ?? []
        #expect(!stores.contains { $0["id"]?.stringValue == storeID })
        let left = try await workspace.json(["files", "list", "--all"]).arrayValue ?? []
        #expect(!left.contains { fileIDs.contains($0["id"]?.stringValue ?? "") })
    }

    @Test func downloadThenOneFileAtATimeShowRenameRemove() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let text = "The peer keeps this file's bytes exactly: ünïcödé, 🐝 and a last line.\n"
        let path = try workspace.file("kept.txt", text)
        let uploaded = try await workspace.json(["files", "upload", path]).arrayValue ?? []
        let fileID = try #require(uploaded.first?["id"]?.stringValue)

        // files download: the exact bytes, where -o says, and the line that says so.
        let saved = workspace.home.appendingPathComponent("downloaded.txt")
        let download = try await workspace.run(["files", "download", fileID, "-o", saved.path])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(download.stdout == "Saved \(fileID) to \(saved.path) (\(text.utf8.count) B).\n")
        #expect(try Data(contentsOf: saved) == Data(text.utf8))

        // stores add with one file goes through the single-file endpoint and waits for it.
        let store = try await workspace.json(["stores", "create", "one-at-a-time"])
        let storeID = try #require(store["id"]?.stringValue)
        let add = try await workspace.run(["stores", "add", storeID, fileID, "--attribute", "team=core"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "Added 1 of 1 file to \(storeID).\n")
        let inStore = try await workspace.json(["stores", "files", storeID]).arrayValue ?? []
        #expect(inStore.map { $0["id"]?.stringValue } == [fileID])
        #expect(inStore.first?["attributes"]?["team"] == "core")

        let show = try await workspace.run(["stores", "show", storeID])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == "\(storeID)  one-at-a-time  1/1 files  completed\n")
        let renamed = try await workspace.run(["stores", "update", storeID, "--name", "renamed-store"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "\(storeID)  renamed-store  1/1 files  completed\n")
        #expect(try await workspace.json(["stores", "show", storeID])["name"] == "renamed-store")

        let remove = try await workspace.run(["stores", "remove", storeID, fileID])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(remove.stdout == "Removed \(fileID) from \(storeID).\n")
        #expect(try await workspace.json(["stores", "files", storeID]).arrayValue == [])

        #expect(try await workspace.run(["stores", "delete", storeID]).status == 0)
        #expect(try await workspace.run(["files", "delete", fileID]).status == 0)
    }
}
