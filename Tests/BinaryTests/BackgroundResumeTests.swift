import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// A background response's stream that breaks off resumes by itself from its last event
/// (`GET /responses/ID?stream=true&starting_after=N`), a bounded number of times, each attempt recorded
/// with the response's id; a stream that is not a background one fails as before.
@Suite("background streams resume by themselves")
struct BackgroundResumeTests {
    static let frames = Fixtures.textStream(id: "resp_bg3", text: "alpha beta gamma delta epsilon")

    /// The first stream breaks after event 6; each resume gets the events after the one it names, breaking
    /// again after one more event while `breaks` allows.
    static func route(breaksOnResume: Int) -> LoopbackServer.Route {
        let resumes = Counter()
        return { request in
            let broken: (Int) -> Reply = { end in
                Reply(
                    status: 200, headers: [("Content-Type", "text/event-stream")],
                    parts: frames[..<end].map { .bytes(Array($0.utf8)) } + [.dropConnection])
            }
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"): return broken(7)
            case ("GET", "/v1/responses/resp_bg3"):
                let after = Int(request.uri.components(separatedBy: "starting_after=").last ?? "") ?? -1
                if resumes.next() <= breaksOnResume {
                    return Reply(
                        status: 200, headers: [("Content-Type", "text/event-stream")],
                        parts: [.bytes(Array(frames[after + 1].utf8)), .dropConnection])
                }
                return .sse(Array(frames[(after + 1)...]))
            default: return .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
    }

    @Test func aBrokenBackgroundStreamResumesFromItsLastEvent() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route(breaksOnResume: 1))
        defer { harness.close() }
        let server = harness.server
        var variables = harness.variables
        variables["OPENRESPONSES_MAX_RETRIES"] = "0"  // every request counted below is a resume, not a transport retry
        let ask = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--model", "m", "--background", "count to five"],
            environment: variables)
        #expect(ask.status == 0, "\(ask.stderr)")
        #expect(ask.stdout == "alpha beta gamma delta epsilon\n", "every word once")
        let resumes = server.requests.filter { $0.method == "GET" }.map(\.uri)
        #expect(resumes.count == 2)
        #expect(
            resumes.first?.contains("starting_after=6") == true && resumes.last?.contains("starting_after=7") == true,
            "\(resumes)")

        let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        let rows = try await store.recentExchanges()
        #expect(rows.count == 3, "the create and two resumes, each recorded")
        #expect(rows.allSatisfy { $0.responseId == "resp_bg3" }, "linked by the response's id")
        // `inspect list --response` shows the attempts together.
        let listed = try await harness.run(["inspect", "list", "--response", "resp_bg3", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let attempts = try #require(try JSONValue.parse(Array(listed.stdout.utf8)).arrayValue)
        #expect(
            attempts.compactMap { $0["url"]?.stringValue }.sorted { $0.count < $1.count }.map {
                $0.hasSuffix("/v1/responses") || $0.contains("starting_after=")
            } == [true, true, true], "\(attempts.compactMap { $0["url"]?.stringValue })")
    }

    @Test func resumingStopsAfterItsAttemptsAndAForegroundStreamIsNotResumed() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route(breaksOnResume: 10))
        defer { harness.close() }
        let server = harness.server
        // Each resume is counted as one request: the transport's own retries (a connection error before the head,
        // which a starved machine can cause) are another matter, kept out of the count.
        var variables = harness.variables
        variables["OPENRESPONSES_MAX_RETRIES"] = "0"
        let background = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--model", "m", "--background", "count"], environment: variables)
        #expect(background.status != 0)
        let resumes = server.requests.filter { $0.method == "GET" }
        #expect(resumes.count == 3, "three attempts, then the turn fails: \(resumes.map(\.uri)); \(background.stderr)")

        let before = server.requests.count
        let foreground = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--model", "m", "count"], environment: variables)
        #expect(foreground.status != 0)
        #expect(server.requests.count == before + 1, "a stream that is not a background one is not resumed")
    }
}
