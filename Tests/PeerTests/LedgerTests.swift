import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The ledger against the peer: what `ask`, `files upload` and `stores create` left on it is listed, and
/// `ledger gc --yes` really deletes it there. The ledger of a console session against a loopback server is
/// in TerminalTests.
@Suite("ledger of server-side objects")
struct LedgerTests {
    @Test(.enabled(if: PeerServer.baseURL != nil, "\(PeerServer.skipReason)"))
    func gcDeletesOnThePeer() async throws {
        let peer = try #require(PeerServer.baseURL)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let notes = home.appendingPathComponent("bees.txt")
        try "Bees dance to tell where flowers are.\n".write(to: notes, atomically: true, encoding: .utf8)
        let environment = [
            "OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin", "OPENAI_BASE_URL": peer,
            "OPENAI_API_KEY": "none",
        ]
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
        }
        let asked = try await run(["ask", "--model", PeerServer.model, "hello"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(try await run(["files", "upload", notes.path]).status == 0)
        #expect(try await run(["stores", "create", "ledger-test"]).status == 0)
        let listed =
            try JSONValue.parse(Array(try await run(["ledger", "list", "--json"]).stdout.utf8)).arrayValue ?? []
        #expect(
            Set(listed.compactMap { $0["type"]?.stringValue }) == ["response", "file", "vector_store"], "\(listed)")
        let gc = try await run(["ledger", "gc", "--older-than", "0s", "--yes"])
        #expect(gc.status == 0, "\(gc.stdout)\(gc.stderr)")
        #expect(gc.stdout.contains("Deleted 3, failed 0."), "\(gc.stdout)")
        for entry in listed {
            let path =
                entry["type"] == "file" ? "files" : entry["type"] == "vector_store" ? "vector_stores" : "responses"
            let status = try await Subprocess.run(
                "/usr/bin/curl",
                ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(peer)/\(path)/\(entry["id"]?.stringValue ?? "")"],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(
                status.stdout == "404" || status.stdout == "400",
                "\(path) \(entry["id"] ?? .null) still there: \(status.stdout)")
        }
        #expect(try await run(["ledger", "list"]).stdout.contains("The ledger is empty"))
    }
}
