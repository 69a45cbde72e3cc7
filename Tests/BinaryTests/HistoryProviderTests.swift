import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `history delete --server` deletes a conversation's stored responses on the server each was sent to, with
/// that server's key; and `history export -o` says what is wrong with a path in words.
@Suite("history on named providers")
struct HistoryProviderTests {
    let home = TestHome("histprov")

    static func server(id: String) -> @Sendable (ReceivedRequest) -> Reply {
        { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"):
                return .sse(Fixtures.textStream(id: id, text: "Stored answer"))
            case ("DELETE", "/v1/responses/\(id)"):
                return .json(#"{"id":"\#(id)","object":"response.deleted","deleted":true}"#)
            default:
                return .json(#"{"error":{"message":"No response found with id."}}"#, status: 404)
            }
        }
    }

    func onlySession(_ environment: [String: String]) async throws -> String {
        let list = try await home.run(["history", "list", "--json"], environment: environment)
        let sessions = try #require(try JSONValue.parse(Array(list.stdout.utf8)).arrayValue, "\(list.stdout)")
        return try #require(sessions.first?["id"]?.stringValue, "\(list.stdout)")
    }

    @Test func deleteOnTheServerGoesToTheProviderTheTurnWentTo() async throws {
        defer { home.remove() }
        try await home.withDefaultAndBeta(Self.server(id: "resp_plain"), Self.server(id: "resp_beta")) {
            plain, beta, environment in
            let asked = try await home.run(
                ["ask", "--provider", "beta", "--model", "m", "a question for beta"], environment: environment)
            #expect(asked.status == 0, "\(asked.stderr)")
            let session = try await onlySession(environment)

            let deleted = try await home.run(
                ["history", "delete", session, "--server", "--yes"], environment: environment)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.contains("deleted response resp_beta"), "\(deleted.stdout)")
            #expect(
                beta.requests.contains {
                    $0.method == "DELETE" && $0.path == "/v1/responses/resp_beta"
                        && $0.header("authorization") == "Bearer sk-beta-secret-0000"
                })
            #expect(
                !plain.requests.contains { $0.method == "DELETE" },
                "the default server is not asked to delete beta's response")
            #expect(!deleted.stdout.contains("sk-") && !deleted.stderr.contains("sk-"))
        }
    }

    @Test func exportToABadPathSaysWhatIsWrong() async throws {
        defer { home.remove() }
        let plain = try await LoopbackServer.start(route: Self.server(id: "resp_plain"))
        defer { Task { await plain.stop() } }
        let environment = ["OPENAI_BASE_URL": plain.baseURL, "OPENAI_API_KEY": "sk-plain-0000"]
        let asked = try await home.run(["ask", "--model", "m", "something to export"], environment: environment)
        #expect(asked.status == 0, "\(asked.stderr)")
        let session = try await onlySession(environment)

        let directory = try await home.run(["history", "export", session, "-o", home.path], environment: environment)
        #expect(directory.status == 2)
        #expect(
            directory.stderr == "error: cannot write to \"\(home.path)\": it is a directory: give a file name in it\n",
            "\(directory.stderr)")
        let missing = home.appendingPathComponent("no/such/dir/c.md").path
        let nowhere = try await home.run(["history", "export", session, "-o", missing], environment: environment)
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("its directory \(home.path)/no/such/dir does not exist"), "\(nowhere.stderr)")
        let empty = try await home.run(["history", "export", session, "-o", ""], environment: environment)
        #expect(empty.status == 2 && empty.stderr.contains("no file name was given"), "\(empty.stderr)")
        let written = try await home.run(
            ["history", "export", session, "-o", home.appendingPathComponent("c.md").path], environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(
            try String(contentsOf: home.appendingPathComponent("c.md"), encoding: .utf8).contains("something to export")
        )
    }
}
