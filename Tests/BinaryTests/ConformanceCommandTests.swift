import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `providers check --conformance` as a user runs it, against two loopback conformance servers: one that
/// does what OpenAI does and one that forgets chains and drops a sequence number. The exit status, the
/// matrix, `--json`, the record in the data directory, and a console session on the forgetful one that
/// starts stateless by itself.
@Suite("providers check --conformance")
struct ConformanceCommandTests {
    let home = TestHome("conf")

    @Test func theMatrixItsJSONItsExitStatusAndAStatelessSession() async throws {
        defer { home.remove() }
        let good = try await LoopbackServer.start(route: ConformanceServer(vectorStore: true).route)
        let bad = try await LoopbackServer.start(
            route: ConformanceServer(flaws: [.forgetsChains, .dropsASequenceNumber, .hostileText]).route)
        defer {
            Task {
                await good.stop()
                await bad.stop()
            }
        }
        _ = try home.write(
            "config.yaml",
            """
            version: 1
            providers:
              good:
                base_url: \(good.baseURL)
                model: conf-model
              bad:
                base_url: \(bad.baseURL)
                model: conf-model
            """, mode: 0o600)
        let passing = try await home.run(["providers", "check", "--conformance", "good"])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        let lines = passing.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("provider  create  stream  chain  function call") == true, "\(passing.stdout)")
        #expect(lines.contains { $0.hasPrefix("good") && $0.filter { $0 == "✓" }.count == 9 }, "\(passing.stdout)")
        #expect(passing.stdout.contains("good keeps chained turns"))

        let failing = try await home.run(["providers", "check", "--conformance", "bad"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("bad stream ✗ event 7 `response.output_text.delta`: no `sequence_number`"))
        #expect(failing.stdout.contains("bad chain ✗ chain not kept"))
        #expect(failing.stdout.contains("bad file_search – skipped: no vector store"))
        #expect(failing.stdout.contains("bad does not keep chained turns"))
        #expect(!failing.stdout.contains("\u{1B}"), "the server's escape sequence reaches no one")

        let json = try await home.run(["providers", "check", "--conformance", "--json", "bad"])
        #expect(json.status == 1)
        let reports = try #require(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue)
        let report = try #require(reports.first)
        #expect(report["provider"] == "bad")
        #expect(report["keeps_chains"] == false)
        #expect(report["checks"]?["file_search"]?["verdict"] == "skipped")
        #expect(report["checks"]?["chain"]?["verdict"] == "failed")
        #expect(report["checks"]?["create"]?["verdict"] == "passed")

        let record = try JSONValue.parse(
            Array(try Data(contentsOf: home.appendingPathComponent("conformance.json"))))
        #expect(record["providers"]?["good"]?["keeps_chains"] == true)
        #expect(record["providers"]?["bad"]?["keeps_chains"] == false)

        // A console on the forgetful provider says so once, and sends the whole conversation each turn.
        let requestsBefore = bad.requests.count
        let chat = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["chat", "--provider", "bad"],
            environment: ["OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"],
            stdin: "first line\nsecond line\n")
        #expect(chat.status == 0, "\(chat.stderr)")
        let notice = "provider bad does not keep chained turns (providers check --conformance, "
        #expect(chat.stderr.components(separatedBy: notice).count == 2, "said once: \(chat.stderr)")
        #expect(chat.stderr.contains("): stateless mode"))
        let turns = bad.requests.dropFirst(requestsBefore).filter { $0.path == "/v1/responses" }
        try #require(turns.count == 2)
        let second = String(decoding: turns[1].body, as: UTF8.self)
        #expect(!second.contains("previous_response_id"), "\(second)")
        #expect(second.contains("first line") && second.contains("second line"), "\(second)")
        // On the provider that keeps chains, nothing is said and the turns are chained.
        let chained = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["chat", "--provider", "good"],
            environment: ["OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"],
            stdin: "first line\nsecond line\n")
        #expect(!chained.stderr.contains("stateless"), "\(chained.stderr)")
        let lastBody = good.requests.last.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(lastBody.contains("previous_response_id"))
    }
}
