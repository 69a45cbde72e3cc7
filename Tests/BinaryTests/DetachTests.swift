import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49: `ask --detach` prints the id of a background response once the server has accepted it, and
/// `jobs`, `jobs wait`, `attach` and `cancel` take that id; a response whose stream ended early is in the
/// ledger all the same. Ctrl-C detaching on a terminal is in TerminalTests.
@Suite("ask --detach and jobs wait")
struct DetachTests {
    static let answer =
        #"{"id":"resp_d1","object":"response","status":"completed","background":true,"model":"test-model","output":[{"id":"msg_d","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"The whole archive, summarized.","annotations":[]}]}]}"#

    /// A server whose background response is queued, then in progress for two polls, then completed.
    static func route(polls: Counter) -> LoopbackServer.Route {
        { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"):
                return .json(
                    #"{"id":"resp_d1","object":"response","status":"queued","background":true,"model":"test-model","output":[]}"#
                )
            case ("GET", "/v1/responses/resp_d1"):
                if polls.next() <= 3 {
                    return .json(
                        #"{"id":"resp_d1","object":"response","status":"in_progress","background":true,"model":"test-model","output":[]}"#
                    )
                }
                return .json(answer)
            case ("POST", "/v1/responses/resp_d1/cancel"):
                return .json(
                    #"{"id":"resp_d1","object":"response","status":"cancelled","model":"test-model","output":[]}"#)
            case ("GET", "/v1/responses/resp_short"):
                return .json(
                    #"{"id":"resp_short","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"model":"m","output":[{"id":"msg_s","type":"message","status":"incomplete","role":"assistant","content":[{"type":"output_text","text":"Cut","annotations":[]}]}]}"#
                )
            case ("GET", "/v1/responses/resp_failed"):
                return .json(
                    #"{"id":"resp_failed","object":"response","status":"failed","error":{"code":"server_error","message":"The model crashed."},"model":"m","output":[]}"#
                )
            default:
                return .json(#"{"error":{"message":"No response found."}}"#, status: 404)
            }
        }
    }

    @Test func detachPrintsTheIdThatJobsWaitAttachAndCancelTake() async throws {
        let polls = Counter()
        let harness = try await ConsoleHarness.start(route: Self.route(polls: polls))
        defer { harness.close() }
        let server = harness.server

        let detached = try await harness.run(["ask", "--detach", "summarize the whole archive"])
        #expect(detached.status == 0, "\(detached.stderr)")
        #expect(detached.stdout == "resp_d1\n")
        #expect(detached.stderr.contains("resp_d1 is queued on the server: openresponses jobs wait resp_d1"))
        let created = try JSONValue.parse(try #require(server.requests.first?.body))
        #expect(created["background"] == true && created["stream"] != true, "\(created.compactString)")

        let jobs = try await harness.run(["jobs", "--json"])
        #expect(jobs.status == 0, "\(jobs.stderr)")
        let listed = try #require(try JSONValue.parse(Array(jobs.stdout.utf8)).arrayValue)
        #expect(listed.count == 1 && listed.first?["id"] == "resp_d1" && listed.first?["status"] == "in_progress")

        let waited = try await harness.run(["jobs", "wait", "resp_d1"])
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stdout == "The whole archive, summarized.\n")
        #expect(waited.stderr.contains("Waiting for resp_d1 (in_progress)"), "\(waited.stderr)")
        let asked = server.requests.filter { $0.method == "GET" && $0.path == "/v1/responses/resp_d1" }.count
        #expect(asked == 4, "one poll for jobs, then three until it completed")

        let attached = try await harness.run(["attach", "resp_d1"])
        #expect(attached.status == 0 && attached.stdout == "The whole archive, summarized.\n", "\(attached.stderr)")
        let cancelled = try await harness.run(["cancel", "resp_d1"])
        #expect(cancelled.status == 0 && cancelled.stdout == "Cancelled resp_d1 (status: cancelled).\n")
    }

    @Test func jobsWaitExitsAsAskDoesOnAnUnfinishedJob() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route(polls: Counter()))
        defer { harness.close() }
        let short = try await harness.run(["jobs", "wait", "resp_short"])
        #expect(short.status == 3 && short.stdout == "Cut\n", "\(short.stderr)")
        #expect(short.stderr.contains("resp_short is incomplete (max_output_tokens)."))
        let failed = try await harness.run(["jobs", "wait", "resp_failed"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("resp_failed is failed: The model crashed."), "\(failed.stderr)")
        let unknown = try await harness.run(["jobs", "wait", "resp_nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains("cannot wait for resp_nope"), "\(unknown.stderr)")
    }

    @Test func aResponseThatIsNotStoredCannotBeDetached() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route(polls: Counter()))
        defer { harness.close() }
        let refused = try await harness.run(["ask", "--detach", "--set", "store=false", "hello"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("--detach needs a stored response"), "\(refused.stderr)")
        #expect(harness.server.requests.isEmpty)
    }

    /// A stored response whose stream broke off after its first events exists on the server: it is in the
    /// ledger (so `ledger gc` finds it), though the exchange failed.
    @Test func aStreamThatEndedEarlyLeavesItsResponseInTheLedger() async throws {
        let frames = Fixtures.textStream(id: "resp_cut", text: "alpha beta gamma delta")
        let harness = try await ConsoleHarness.start { request in
            Reply(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                parts: frames[..<4].map { .bytes(Array($0.utf8)) } + [.dropConnection])
        }
        defer { harness.close() }
        let cut = try await harness.run(["ask", "tell me"])
        #expect(cut.status == 1, "\(cut.stderr)")
        let ledger = try await harness.run(["ledger", "list"])
        #expect(ledger.status == 0, "\(ledger.stderr)")
        #expect(ledger.stdout.contains("resp_cut"), "\(ledger.stdout)")
    }
}
