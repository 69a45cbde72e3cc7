import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// `eval --baseline RUN` and `eval --html FILE` through the built binary: a run, then a server that has
/// changed; the page of a run whose answer is hostile, opened in headless Chromium.
@Suite("eval baseline and page")
struct EvalBaselineCommandTests {
    /// Greets whoever the message names; once `broken`, forgets Grace. A judge is always pleased.
    final class Greeter: Sendable {
        let broken = Mutex(false)
        var route: LoopbackServer.Route {
            { request in
                let body = (try? JSONValue.parse(request.body)) ?? .null
                if body["text"]?["format"]?["name"] == "judgement" {
                    return answeringRoute { _, _ in #"{"score": 0.4, "reason": "<img src=x onerror=alert(1)>"}"# }(
                        request)
                }
                let broken = self.broken.withLock { $0 }
                return answeringRoute { _, input in
                    if input.contains("hostile") {
                        return "<script>document.title='pwned'</script>\u{1B}[31mred\u{7} & done"
                    }
                    let name = ["Ada", "Grace"].first { input.contains($0) } ?? "stranger"
                    return broken && name == "Grace" ? "Hello, stranger." : "Hello, \(name)!"
                }(request)
            }
        }
    }

    static let suite = """
        version: 1
        name: greetings
        cases:
          - {id: greets-ada, input: "Say hello to Ada", expect: [{contains: Ada}]}
          - {id: greets-grace, input: "Say hello to Grace", expect: [{contains: Grace}]}
        """

    @Test func aRegressionAgainstTheBaselineExitsOneNamingTheCase() async throws {
        let greeter = Greeter()
        let server = try await LoopbackServer.start(route: greeter.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let suite = harness.home.appendingPathComponent("greetings.yaml")
        try Self.suite.write(to: suite, atomically: true, encoding: .utf8)
        let first = try await harness.run(["eval", suite.path, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let run = try #require(try JSONValue.parse(first.stdout)["run"]?.stringValue)

        let unchanged = try await harness.run(["eval", suite.path, "--baseline", run])
        #expect(unchanged.status == 0, "\(unchanged.stderr)\n\(unchanged.stdout)")
        #expect(unchanged.stdout.contains("against run \(run):\n  default: 100% → 100%\n  no case changed"))

        greeter.broken.withLock { $0 = true }
        let page = harness.home.appendingPathComponent("regressed.html")
        let regressed = try await harness.run(["eval", suite.path, "--baseline", run, "--html", page.path])
        #expect(regressed.status == 1, "\(regressed.stderr)")
        #expect(
            regressed.stdout.contains(
                "  regressed (passed in the baseline, fails now):\n    greets-grace [default]\n      contains: \"Grace\": not in the answer \"Hello, stranger.\""
            ), "\(regressed.stdout)")
        #expect(regressed.stdout.contains("default: 100% → 50%, 1 of 2 regressed (more than the 0% allowed)"))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<h2>Against run \(run)</h2>\n<p id=\"baseline\">regressed beyond the limit</p>"))
        #expect(html.contains("<ul id=\"regressions\"><li>greets-grace [default]</li></ul>"), "\(html)")
        // Half may regress: it did not regress by more.
        let allowed = try await harness.run([
            "eval", suite.path, "--baseline", run, "--max-regression", "0.5", "--json",
        ])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let baseline = try JSONValue.parse(allowed.stdout)["baseline"]
        #expect(baseline?["run"]?.stringValue == run)
        #expect(baseline?["regressions"]?[0]?["id"] == "greets-grace")
        #expect(baseline?["columns"]?[0]?["baseline_pass_rate"]?.doubleValue == 1)

        // A baseline is a run's id, never a path; one that names no run is a usage error too.
        for bad in ["../evals/\(run)", "\(run).json", "/etc/passwd"] {
            let refused = try await harness.run(["eval", suite.path, "--baseline", bad])
            #expect(refused.status == 2 && refused.stderr.contains("is not a run's id"), "\(refused.stderr)")
        }
        let missing = try await harness.run(["eval", suite.path, "--baseline", "20200101T000000Z-000000"])
        #expect(missing.status == 2 && missing.stderr.contains("no run 20200101T000000Z-000000"), "\(missing.stderr)")
        let other = "20200101T000000Z-000001"
        try #"{"run": "20261129T074501Z-3f9a1c", "cases": []}"#.write(
            to: harness.home.appendingPathComponent("evals/\(other).json"), atomically: true, encoding: .utf8)
        let requests = server.requests.count
        let foreign = try await harness.run(["eval", suite.path, "--baseline", other])
        #expect(foreign.status == 2 && foreign.stderr.contains("is not run \(other)'s JSON"), "\(foreign.stderr)")
        #expect(server.requests.count == requests, "nothing sent")
        // A page that cannot be written: the report is shown all the same, and the exit status is 1.
        let unwritable = try await harness.run(["eval", suite.path, "--html", "/nonexistent/dir/run.html"])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("cannot write /nonexistent/dir/run.html"))
        #expect(unwritable.stdout.contains("passed (run "), "\(unwritable.stdout)")
    }

    @Test(.enabled(if: Chromium.path != nil, "Chromium is not installed (scripts/test.sh installs it where it can)"))
    func thePageShowsTheRunAndRunsNoScriptFromAnAnswer() async throws {
        let server = try await LoopbackServer.start(route: Greeter().route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let suite = harness.home.appendingPathComponent("hostile.yaml")
        try """
        version: 1
        name: hostile
        cases:
          - {id: greets-ada, input: "Say hello to Ada", expect: [{contains: Ada}]}
          - {id: hostile-case, input: "Be hostile", expect: [{contains: "<b>never</b>"}, {judge: {rubric: "Is kind"}}]}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let page = harness.home.appendingPathComponent("run.html")
        let result = try await harness.run(["eval", suite.path, "--html", page.path, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let run = try #require(try JSONValue.parse(result.stdout)["run"]?.stringValue)
        let mode = try FileManager.default.attributesOfItem(atPath: page.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<script>") && !html.contains("\u{1B}") && !html.contains("<img"))
        #expect(
            html.contains(
                "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;\u{FFFD}[31mred\u{FFFD} &amp; done"))
        // The judge's call is recorded with the run's label, beside the cases' two.
        let list = try await harness.run(["inspect", "list", "--eval", run, "--json"])
        #expect(try JSONValue.parse(list.stdout).arrayValue?.count == 3, "\(list.stderr)")

        let chromium = try #require(Chromium.path)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(harness.home.path)/chromium"]
        let dom = try await Subprocess.run(
            chromium, flags + ["--dump-dom", page.absoluteString], environment: harness.variables)
        try #require(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.contains("<title>Eval run \(run)</title>"), "no script changed the title")
        #expect(dom.stdout.contains("greets-ada") && dom.stdout.contains("hostile-case"))
        #expect(dom.stdout.contains("<b id=\"passed\">1 of 2</b>"))
        #expect(dom.stdout.contains("contains: \"&lt;b&gt;never&lt;/b&gt;\""), "\(dom.stdout.suffix(2000))")
        #expect(dom.stdout.contains("0.40") && dom.stdout.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!dom.stdout.contains("<script") && !dom.stdout.contains("<img"))
    }
}
