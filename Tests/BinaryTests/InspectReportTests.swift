import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Chromium, when this machine has it (`scripts/test.sh` installs it where it can).
enum Chromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

/// `openresponses inspect report` over exchanges recorded from a loopback server: a completed answer, a
/// function call, and a 404 with its request id. The file is self-contained and private, holds every
/// exchange and never the key; in headless Chromium its DOM shows the counts and its offline filter works.
@Suite("inspect report")
struct InspectReportTests {
    /// Records three exchanges and writes the report (read from `engine`'s store); returns the harness and the
    /// report's path.
    func recorded(engine: InspectorEngine = .sqlite) async throws -> (ConsoleHarness, URL) {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var configured = ConsoleHarness(server: server)
        configured.extraVariables = try engine.variables()
        let harness = configured
        let run = { (arguments: [String], base: String?) async throws -> Subprocess.Result in
            var variables = harness.variables
            if let base { variables["OPENAI_BASE_URL"] = base }
            return try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: variables)
        }
        _ = try await run(["ask", "--model", "openai/echo", "tell me about pelicans"], nil)
        // A function call first (the console answers it and asks again), then a plain answer.
        let calls = Counter()
        let tools = try await LoopbackServer.start { _ in
            calls.next() == 1
                ? .sseFixture("stream-function-call.sse")
                : .sse(Fixtures.textStream(id: "resp_after", text: "It is noon."))
        }
        _ = try await run(["ask", "what time is it in Tokyo?"], tools.baseURL)
        await tools.stop()
        let missing = try await LoopbackServer.start { _ in
            .jsonFixture("error-model-not-found.json", status: 404, headers: [("x-request-id", "req_report_404")])
        }
        _ = try await run(["ask", "--model", "gpt-nonexistent", "zebras"], missing.baseURL)
        await missing.stop()
        await server.stop()
        let report = harness.home.appendingPathComponent("report.html")
        let written = try await run(["inspect", "report", "-o", report.path], nil)
        try #require(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "wrote \(report.path): 4 exchanges\n")
        return (harness, report)
    }

    @Test(arguments: InspectorEngine.all) func theReportHoldsEveryExchangeAndNothingFromTheNetwork(
        engine: InspectorEngine
    ) async throws {
        let (harness, report) = try await recorded(engine: engine)
        defer { harness.remove() }
        let html = try String(contentsOf: report, encoding: .utf8)
        let mode = try FileManager.default.attributesOfItem(atPath: report.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<details id=\"x-").count - 1 == 4)
        #expect(html.contains("req_report_404"))
        #expect(html.contains("tell me about pelicans"), "the request, pretty-printed")
        // The function call's span on its exchange's waterfall, and the failed one in red.
        #expect(html.contains("<title>local_time: "))
        #expect(html.contains("class=\"dot failed\""))
        #expect(!html.contains(consoleTestKey))
        // Self-contained: nothing is fetched when it is opened.
        #expect(html.firstMatch(of: /(src|href)="https?:/) == nil)
        #expect(!html.contains("<link"))

        // --model and --since choose the exchanges.
        let variables = harness.variables
        let onlyEcho = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "report", "--model", "gpt-nonexistent", "-o", report.path],
            environment: variables)
        #expect(onlyEcho.stdout.hasSuffix(": 1 exchange\n"), "\(onlyEcho.stdout)\(onlyEcho.stderr)")
        let none = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "report", "--since", "2999-01-01", "-o", report.path],
            environment: variables)
        #expect(none.stdout.hasSuffix(": 0 exchanges\n"))
        let bad = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "report", "-o", "/nonexistent/dir/report.html"],
            environment: variables)
        #expect(bad.status != 0 && bad.stderr.contains("cannot write /nonexistent/dir/report.html"), "\(bad.stderr)")
    }

    @Test(.enabled(if: Chromium.path != nil, "Chromium is not installed (scripts/test.sh installs it where it can)"))
    func inChromiumTheCountsShowAndTheFilterWorksOffline() async throws {
        let (harness, report) = try await recorded()
        defer { harness.remove() }
        let chromium = try #require(Chromium.path)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(harness.home.path)/chromium"]
        let all = try await Subprocess.run(
            chromium, flags + ["--dump-dom", report.absoluteString], environment: harness.variables)
        try #require(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("<span id=\"count-total\"><b>4</b> exchanges</span>"))
        #expect(all.stdout.contains("<span class=\"muted\" id=\"shown\">4 shown</span>"))
        #expect(all.stdout.contains("req_report_404"))
        // The page's own script filters by status, from the address (#filter:status=failed).
        let failed = try await Subprocess.run(
            chromium, flags + ["--dump-dom", report.absoluteString + "#filter:status=failed"],
            environment: harness.variables)
        #expect(failed.stdout.contains("id=\"shown\">1 shown</span>"), "\(failed.stdout.suffix(400))")
        let screenshot = harness.home.appendingPathComponent("report.png")
        _ = try await Subprocess.run(
            chromium, flags + ["--screenshot=\(screenshot.path)", "--window-size=1200,1400", report.absoluteString],
            environment: harness.variables)
        let size = try FileManager.default.attributesOfItem(atPath: screenshot.path)[.size] as? Int
        #expect((size ?? 0) > 10_000, "a screenshot of the page")
    }
}
