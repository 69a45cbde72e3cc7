import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `jobs` and `cancel`: the built binary against a loopback server; a background `ask` goes into the
/// ledger and `jobs` lists it with the status the server gives now; a foreground one does not; `cancel`
/// posts to the server and says what it answered, an error included; `attach` resumes a cut stream. The
/// console's `/jobs` and Ctrl-C on a terminal are in TerminalTests.
@Suite("background jobs: jobs and cancel")
struct JobsTests {
    /// The built binary with `arguments`, in the harness's environment.
    static func run(_ arguments: [String], _ harness: ConsoleHarness) async throws -> Subprocess.Result {
        try await harness.run(arguments)
    }

    @Test func aBackgroundAskIsListedWithItsStatusAndCancelled() async throws {
        let harness = try await ConsoleHarness.start(route: ConsoleRoutes.jobs)
        defer { harness.close() }
        let server = harness.server
        func run(_ arguments: [String]) async throws -> Subprocess.Result { try await Self.run(arguments, harness) }

        let empty = try await run(["jobs"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(
            empty.stdout == "No background job running or started in the last 24 hours (jobs --all lists every one).\n")

        let background = try await run([
            "ask", "--model", "m", "--set", "background=true", "summarize   the whole\narchive please",
        ])
        #expect(background.status == 0, "\(background.stderr)")
        let foreground = try await run(["ask", "--model", "m", "hello"])
        #expect(foreground.status == 0, "\(foreground.stderr)")

        let jobs = try await run(["jobs"])
        #expect(jobs.status == 0, "\(jobs.stderr)")
        let lines = jobs.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(jobs.stdout)")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("STATUS") == true)
        let row = lines.last ?? ""
        #expect(
            row.contains("resp_bg1") && row.contains("in_progress")
                && row.contains("summarize the whole archive please"), "\(row)")
        #expect(!jobs.stdout.contains("resp_fg1"))
        #expect(
            server.requests.contains { $0.method == "GET" && $0.path == "/v1/responses/resp_bg1" },
            "the status is asked of the server")

        let json = try await run(["jobs", "--all", "--json"])
        let listed = try #require(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue)
        #expect(listed.count == 1)
        #expect(
            listed.first?["status"]?.stringValue == "in_progress" && listed.first?["model"]?.stringValue == "test-model"
        )

        let cancel = try await run(["cancel", "resp_bg1"])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        #expect(cancel.stdout == "Cancelled resp_bg1 (status: cancelled).\n")
        #expect(server.requests.last?.method == "POST" && server.requests.last?.path == "/v1/responses/resp_bg1/cancel")

        let refused = try await run(["cancel", "resp_done"])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("cannot cancel resp_done")
                && refused.stderr.contains("Cannot cancel a completed response.")
                && refused.stderr.contains("req_cancel"), "\(refused.stderr)")
    }

    /// A background stream cut off after "gamma " (sequence number 6): `attach` asks for the events after 6
    /// and prints only the rest; a finished job prints its answer.
    @Test func attachResumesAfterTheLastRecordedEventAndShowsAFinishedAnswer() async throws {
        let frames = Fixtures.textStream(id: "resp_bg2", text: "alpha beta gamma delta epsilon")
        let cut = 7
        let streams = Counter()
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"):
                return Reply(
                    status: 200, headers: [("Content-Type", "text/event-stream")],
                    parts: frames[..<cut].map { .bytes(Array($0.utf8)) } + [.dropConnection])
            case ("GET", "/v1/responses/resp_bg2") where request.uri.contains("stream=true"):
                // The ask's own attempt to resume fails (so the job stays unseen); attach's succeeds.
                if streams.next() == 1 { return .json(#"{"error":{"message":"not yet"}}"#, status: 400) }
                return .sse(Array(frames[cut...]))
            case ("GET", "/v1/responses/resp_bg2"):
                return .json(
                    #"{"id":"resp_bg2","object":"response","status":"in_progress","model":"test-model","output":[]}"#)
            case ("GET", "/v1/responses/resp_done"):
                return .json(
                    #"{"id":"resp_done","object":"response","status":"completed","model":"test-model","output":[{"id":"msg_d","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"All done.","annotations":[]}]}]}"#
                )
            default:
                return .json(#"{"error":{"message":"No response found with id 'resp_nope'."}}"#, status: 404)
            }
        }
        defer { Task { await server.stop() } }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        func run(_ arguments: [String]) async throws -> Subprocess.Result { try await Self.run(arguments, harness) }

        let started = try await run(["ask", "--model", "m", "--set", "background=true", "count to five"])
        #expect(started.stdout.hasPrefix("alpha beta gamma"), "\(started.stdout)")
        #expect(started.status != 0, "the connection dropped mid-stream")

        let attached = try await run(["attach", "resp_bg2"])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout == "delta epsilon\n", "only what had not been shown")
        #expect(attached.stderr.contains("Attached to resp_bg2 (in_progress), after event 6"), "\(attached.stderr)")
        let resumed = try #require(server.requests.last)
        #expect(
            resumed.method == "GET" && resumed.uri.contains("starting_after=6") && resumed.uri.contains("stream=true"),
            "\(resumed.uri)")

        let done = try await run(["attach", "resp_done"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout == "All done.\n")
        #expect(done.stderr == "resp_done is completed.\n")

        let unknown = try await run(["attach", "resp_nope"])
        #expect(
            unknown.status != 0 && unknown.stderr.contains("cannot attach to resp_nope")
                && unknown.stderr.contains("No response found"))
    }
}
