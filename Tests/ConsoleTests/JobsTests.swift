import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `jobs` and `cancel`: the built binary against a loopback server; a background `ask` goes into the
/// ledger and `jobs` lists it with the status the server gives now; a foreground one does not; `cancel`
/// posts to the server and says what it answered, an error included.
@Suite("background jobs: jobs and cancel")
struct JobsTests {
    static func route(_ request: ReceivedRequest) -> Reply {
        switch (request.method, request.path) {
        case ("POST", "/v1/responses"):
            let background = String(decoding: request.body, as: UTF8.self).contains(#""background":true"#)
            return .sse(Fixtures.textStream(id: background ? "resp_bg1" : "resp_fg1", text: "Working on it"))
        case ("GET", "/v1/responses/resp_bg1"):
            return .json(#"{"id":"resp_bg1","object":"response","status":"in_progress","model":"m","output":[]}"#)
        case ("POST", "/v1/responses/resp_bg1/cancel"):
            return .json(#"{"id":"resp_bg1","object":"response","status":"cancelled","model":"m","output":[]}"#)
        default:
            return .json(#"{"error":{"message":"Cannot cancel a completed response.","type":"invalid_request_error","code":null}}"#,
                         status: 400, headers: [("x-request-id", "req_cancel")])
        }
    }

    @Test func aBackgroundAskIsListedWithItsStatusAndCancelled() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        defer { Task { await server.stop() } }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let binary = Subprocess.openresponsesBinary
        func run(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(binary, arguments, environment: harness.variables)
        }

        let empty = try await run(["jobs"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == "No background job running or started in the last 24 hours (jobs --all lists every one).\n")

        let background = try await run(["ask", "--model", "m", "--set", "background=true", "summarize   the whole\narchive please"])
        #expect(background.status == 0, "\(background.stderr)")
        let foreground = try await run(["ask", "--model", "m", "hello"])
        #expect(foreground.status == 0, "\(foreground.stderr)")

        let jobs = try await run(["jobs"])
        #expect(jobs.status == 0, "\(jobs.stderr)")
        let lines = jobs.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(jobs.stdout)")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("STATUS") == true)
        let row = lines.last ?? ""
        #expect(row.contains("resp_bg1") && row.contains("in_progress") && row.contains("summarize the whole archive please"), "\(row)")
        #expect(!jobs.stdout.contains("resp_fg1"))
        #expect(server.requests.contains { $0.method == "GET" && $0.path == "/v1/responses/resp_bg1" }, "the status is asked of the server")

        let json = try await run(["jobs", "--all", "--json"])
        let listed = try #require(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue)
        #expect(listed.count == 1)
        #expect(listed.first?["status"]?.stringValue == "in_progress" && listed.first?["model"]?.stringValue == "test-model")

        let cancel = try await run(["cancel", "resp_bg1"])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        #expect(cancel.stdout == "Cancelled resp_bg1 (status: cancelled).\n")
        #expect(server.requests.last?.method == "POST" && server.requests.last?.path == "/v1/responses/resp_bg1/cancel")

        let refused = try await run(["cancel", "resp_done"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot cancel resp_done") && refused.stderr.contains("Cannot cancel a completed response.")
            && refused.stderr.contains("req_cancel"), "\(refused.stderr)")
    }
}
