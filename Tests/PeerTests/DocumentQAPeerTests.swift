import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The doc-qa preset against the real peer (llama-stack keeps real files and vector stores): a file is
/// uploaded (with curl, until the console's own files commands exist), a vector store made of it, and
/// `ask --preset doc-qa` pointed at the store performs a file_search call that finds the file.
@Suite(
    "doc-qa preset against the peer", .enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
struct DocumentQAPeerTests {
    @Test func askWithTheDocQAPresetPerformsAFileSearchCall() async throws {
        let baseURL = try #require(PeerServer.baseURL)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-docqa-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let document = home.appendingPathComponent("lighthouse.txt")
        try "The Fastnet lighthouse stands on Fastnet Rock, 54 metres tall, off the coast of Ireland.\n"
            .write(to: document, atomically: true, encoding: .utf8)

        let upload = try await DocumentQAPeer.curl([
            "\(baseURL)/files", "-F", "purpose=assistants", "-F", "file=@\(document.path)",
        ])
        let fileID = try #require(try JSONValue.parse(Array(upload.utf8))["id"]?.stringValue, "\(upload)")
        let created = try await DocumentQAPeer.curl(
            [
                "\(baseURL)/vector_stores", "-H", "Content-Type: application/json", "-d",
                #"{"name":"docqa-test","file_ids":[""# + fileID + #""]}"#,
            ])
        let storeID = try #require(try JSONValue.parse(Array(created.utf8))["id"]?.stringValue, "\(created)")

        let environment = [
            "OPENRESPONSES_HOME": home.path, "OPENAI_BASE_URL": baseURL, "OPENAI_API_KEY": "sk-test-1234",
            "PATH": "/usr/bin:/bin",
        ]
        let ask = try await Subprocess.run(
            Subprocess.openresponsesBinary,
            [
                "ask", "--preset", "doc-qa", "--model", DocumentQAPeer.model, "--set",
                "file_search.vector_store_ids=\(storeID)", "--json",
                "CALL_TOOL How tall is the Fastnet lighthouse?",
            ],
            environment: environment)
        #expect(ask.status == 0, "\(ask.stderr)")
        let response = try JSONValue.parse(Array(ask.stdout.utf8))
        let call = try #require(
            response["output"]?.arrayValue?.first { $0["type"] == "file_search_call" }, "\(ask.stdout)")
        #expect(call["status"] == "completed")
        let hits = call["results"]?.arrayValue ?? []
        #expect(hits.first?["file_id"]?.stringValue == fileID)
        #expect(hits.first?["text"]?.stringValue?.contains("54 metres") == true)

        // What went over the wire is in the inspector: the preset's file_search tool with the store.
        let list = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "list", "--json", "--preset", "doc-qa"],
            environment: environment)
        let rows = try JSONValue.parse(Array(list.stdout.utf8)).arrayValue ?? []
        #expect(rows.count == 1)
        let id = try #require(rows.first?["id"]?.intValue)
        let show = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "show", String(id), "--json"], environment: environment)
        let tools = try JSONValue.parse(Array(show.stdout.utf8))["request"]?["body"]?["tools"]
        #expect(tools?[0]?["type"] == "file_search")
        #expect(tools?[0]?["vector_store_ids"] == [.string(storeID)])

        _ = try await DocumentQAPeer.curl(["-X", "DELETE", "\(baseURL)/vector_stores/\(storeID)"])
        _ = try await DocumentQAPeer.curl(["-X", "DELETE", "\(baseURL)/files/\(fileID)"])
    }
}

enum DocumentQAPeer {
    static let model = PeerServer.model

    /// curl's output for `arguments` (a test-time tool; scripts/setup.sh installs it).
    static func curl(_ arguments: [String]) async throws -> String {
        try await Subprocess.run(
            "/usr/bin/env", ["curl", "-sS", "-m", "60"] + arguments, environment: ["PATH": "/usr/bin:/bin"]
        ).stdout
    }
}
