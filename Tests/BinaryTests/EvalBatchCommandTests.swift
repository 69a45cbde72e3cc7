import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `eval --batch`: a suite's calls through the loopback Batch API, one batch for the provider, checked as live
/// calls are, at the batch price, with no latency claimed; each result in the inspector as a call of the run and
/// an exchange of the batch.
@Suite("eval --batch")
struct EvalBatchCommandTests {
    static let suite = """
        version: 1
        name: batched
        presets: [greeter, terse]
        cases:
          - id: echoes
            input: "Say hi"
            expect:
              - contains: "echo: "
              - max_latency_ms: 1
              - max_cost: 0.001
          - id: refused
            input: "FAIL please"
            expect:
              - contains: "echo"
        """

    @Test func aSuiteThroughOneBatch() async throws {
        let batches = BatchServer(progressSteps: 1)
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, _) = try BatchCommandTests().harness(server)
        defer { harness.remove() }
        try "version: 1\nmodel: gpt-4.1-mini\ninstructions: Be terse.\n".write(
            to: harness.home.appendingPathComponent("presets/terse.yaml"), atomically: true, encoding: .utf8)
        let file = harness.home.appendingPathComponent("suite.yaml")
        try Self.suite.write(to: file, atomically: true, encoding: .utf8)
        let result = try await harness.run(["eval", file.path, "--batch", "--batch-interval", "0.05", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try JSONValue.parse(result.stdout)
        let run = try #require(report["run"]?.stringValue)
        let cases = report["cases"]?.arrayValue ?? []
        #expect(cases.count == 4)
        // One batch for the one provider, its four calls composed with each column's preset.
        #expect(server.requests.filter { $0.method == "POST" && $0.path == "/v1/batches" }.count == 1)
        #expect(server.requests.allSatisfy { $0.path != "/v1/responses" }, "nothing was sent live")
        let uploaded = String(decoding: try #require(batches.file("file-1")), as: UTF8.self)
        #expect(uploaded.contains("Greet Ada.") && uploaded.contains("Be terse."), "\(uploaded)")
        let echoes = cases.filter { $0["id"] == "echoes" }
        #expect(echoes.count == 2 && echoes.allSatisfy { $0["passed"] == true }, "\(echoes)")
        // max_latency_ms is not checked (no call's latency is known); max_cost holds at the batch price only.
        #expect(
            echoes.allSatisfy { $0["latency_ms"] == .null && $0["batch"]?.stringValue?.hasPrefix("batch_") == true })
        #expect(echoes.allSatisfy { abs(($0["cost"]?.doubleValue ?? 0) - 0.0006) < 1e-9 }, "\(echoes)")
        let refused = cases.filter { $0["id"] == "refused" }
        #expect(refused.count == 2 && refused.allSatisfy { $0["passed"] == false })
        #expect(
            refused.first?["failures"]?[0]?["seen"]?.stringValue?.contains("Invalid input: FAIL is not allowed")
                == true, "\(refused)")
        #expect((report["columns"]?.arrayValue ?? []).allSatisfy { $0["latency_p50_ms"] == .null })
        #expect(result.stderr.contains("in_progress"), "the batch's progress is shown: \(result.stderr)")
        // Each result is a call of the run and an exchange of its batch.
        let listed = try await harness.run(["inspect", "list", "--eval", run, "--json"])
        let rows = try JSONValue.parse(listed.stdout).arrayValue ?? []
        #expect(rows.count == 4 && rows.allSatisfy { $0["batch_id"]?.stringValue?.hasPrefix("batch_") == true })
        let table = try await harness.run(["eval", file.path, "--batch", "--batch-interval", "0.05"])
        #expect(table.stdout.contains("through the Batch API: no call's latency is known"), "\(table.stdout)")
        await server.stop()
    }
}
