import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// The ledger: a console session that stores a response in a conversation, uploads a file and creates a
/// store leaves four objects on the server, all listed; `verify` marks the ones the server no longer has;
/// `gc --dry-run` names what it would delete and deletes nothing; `gc --yes` deletes, reports a failure and
/// goes on (the console in tmux, the binary, a loopback server). Against the peer (PeerTests), the objects
/// are really gone afterwards.
@Suite("ledger of server-side objects")
struct LedgerTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aSessionsObjectsAreListedVerifiedAndCollected() async throws {
        let conversationDeletes = Mutex(0)
        let route: LoopbackServer.Route = { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/conversations"):
                .json(#"{"id":"conv_L1","object":"conversation","created_at":1,"metadata":{}}"#)
            case ("POST", "/v1/responses"):
                .sse(Fixtures.textStream(id: "resp_L1", text: "stored answer", previousResponseID: nil))
            case ("POST", "/v1/files"):
                .json(
                    #"{"id":"file-L1","object":"file","bytes":6,"created_at":1,"filename":"notes.txt","purpose":"assistants"}"#
                )
            case ("POST", "/v1/vector_stores"):
                .json(
                    #"{"id":"vs_L1","object":"vector_store","name":"papers","created_at":1,"status":"completed","usage_bytes":0,"file_counts":{"in_progress":0,"completed":0,"failed":0,"cancelled":0,"total":0}}"#
                )
            case ("GET", "/v1/responses/resp_L1"):
                .json(
                    #"{"error":{"message":"No response with id 'resp_L1' found.","type":"invalid_request_error"}}"#,
                    status: 404)
            case ("GET", _): .json(#"{"id":"x","object":"thing"}"#)
            case ("DELETE", "/v1/conversations/conv_L1"):
                conversationDeletes.withLock {
                    $0 += 1
                    return $0
                } == 1
                    ? .json(
                        #"{"error":{"message":"The conversation is in use.","type":"invalid_request_error"}}"#,
                        status: 400)
                    : .json(#"{"id":"conv_L1","object":"conversation.deleted","deleted":true}"#)
            case ("DELETE", _): .json(#"{"id":"x","deleted":true}"#)
            default: .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let prepare: (inout ConsoleHarness) throws -> Void = { harness in
            try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
            try "notes\n".write(to: harness.home.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        }
        try await ConsoleHarness.withConsole(route: route, prepare: prepare) { tmux, server, harness in
            let notes = harness.home.appendingPathComponent("notes.txt")
            try await tmux.send(steps: [
                ("/conversation new", "conv_L1"), ("hello", "stored answer"),
                ("/files upload \(notes.path)", "file-L1"),
                ("/stores create papers", "vs_L1"), ("/ledger list file", "notes.txt"),
            ])
            try await tmux.send("/ledger gc 0s", until: "Delete 4 objects on \(server.baseURL)? [y/N] ")
            try await tmux.send("n", until: "Nothing was deleted.")
            #expect(!server.requests.contains { $0.method == "DELETE" })
            try await tmux.quit()

            let listed =
                try JSONValue.parse(Array(try await harness.run(["ledger", "list", "--json"]).stdout.utf8)).arrayValue
                ?? []
            #expect(Set(listed.compactMap { $0["id"]?.stringValue }) == ["conv_L1", "resp_L1", "file-L1", "vs_L1"])
            #expect(
                Set(listed.compactMap { $0["type"]?.stringValue }) == [
                    "conversation", "response", "file", "vector_store",
                ])
            #expect(listed.first { $0["id"] == "file-L1" }?["label"] == "notes.txt")
            #expect(listed.allSatisfy { $0["base_url"]?.stringValue == server.baseURL && $0["source"] == "console" })
            #expect(
                listed.first { $0["id"] == "resp_L1" }?["session"] != .null, "the response names the console session")

            let verified = try await harness.run(["ledger", "verify"])
            #expect(verified.status == 0, "\(verified.stderr)")
            #expect(verified.stdout.contains("resp_L1 response: gone (marked deleted)"))
            #expect(verified.stdout.contains("3 exist, 1 gone, 0 could not be checked."))

            let before = server.requests.count
            let dry = try await harness.run(["ledger", "gc", "--older-than", "0s", "--dry-run"])
            #expect(
                dry.stdout.contains("would delete file file-L1 (notes.txt)")
                    && dry.stdout.contains("would delete vector_store vs_L1 (papers)"))
            #expect(
                dry.stdout.contains("3 to delete on \(server.baseURL); nothing was deleted (--dry-run)."),
                "\(dry.stdout)")
            #expect(server.requests.count == before, "a dry run sends nothing")

            let refused = try await harness.run(["ledger", "gc", "--older-than", "0s"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("pass --yes (or --dry-run)"))

            let gc = try await harness.run(["ledger", "gc", "--older-than", "0s", "--yes"])
            #expect(gc.status == 1, "one deletion failed")
            #expect(gc.stderr.contains("conversation conv_L1: error: The conversation is in use."), "\(gc.stderr)")
            #expect(gc.stdout.contains("deleted file file-L1") && gc.stdout.contains("deleted vector_store vs_L1"))
            #expect(gc.stdout.contains("Deleted 2, failed 1."))
            let left =
                try JSONValue.parse(Array(try await harness.run(["ledger", "list", "--json"]).stdout.utf8)).arrayValue
                ?? []
            #expect(left.compactMap { $0["id"]?.stringValue } == ["conv_L1"], "what failed stays in the ledger")
            let again = try await harness.run(["ledger", "gc", "--older-than", "0s", "--yes"])
            #expect(again.stdout.contains("Deleted 1, failed 0."), "\(again.stdout)\(again.stderr)")
            #expect(
                try await harness.run(["ledger", "list"]).stdout
                    == "The ledger is empty: nothing recorded is left on a server.\n")
        }
    }
}
