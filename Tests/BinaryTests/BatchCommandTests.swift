import Foundation
import ResponsesAPI
import Spawning
import TestSupport
import Testing

/// `openresponses batch`: the whole life of a batch through the built binary against the loopback Batch API
/// (`BatchServer`): submitted from a preset, followed to its end, its results matched to the input's lines,
/// recorded by the inspector at the batch price, in the ledger and deleted by `ledger gc`.
@Suite("batch command")
struct BatchCommandTests {
    static let preset = "version: 1\nmodel: gpt-4.1-mini\ninstructions: Greet {{name}}.\nvariables:\n  name: Ada\n"
    static let input = [
        #"{"id": "hi", "input": "Say hi"}"#,
        #"{"id": "bad", "input": "FAIL here"}"#,
        #"{"id": "grace", "input": "Say hello", "vars": {"name": "Grace"}, "settings": {"temperature": 0}}"#,
        #"{"id": "raw", "body": {"model": "gpt-4.1-mini", "input": "as written"}}"#,
    ]

    func harness(_ server: LoopbackServer, lines: [String] = input) throws -> (ConsoleHarness, String) {
        let harness = ConsoleHarness(server: server)
        let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try Self.preset.write(to: presets.appendingPathComponent("greeter.yaml"), atomically: true, encoding: .utf8)
        let file = harness.home.appendingPathComponent("prompts.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return (harness, file.path)
    }

    func submit(_ harness: ConsoleHarness, _ input: String) async throws -> String {
        let result = try await harness.run(["batch", "submit", "--preset", "greeter", input, "--yes", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONValue.parse(result.stdout)["id"]?.stringValue, "\(result.stdout)")
    }

    func jsonLines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test func aBatchFromSubmitToResultsInTheInspectorAndTheLedger() async throws {
        let batches = BatchServer(progressSteps: 2)
        let server = try await LoopbackServer.start(route: batches.route)
        // A blank line: the results name each request's line in this file, not its place in the batch.
        let (harness, input) = try harness(server, lines: [Self.input[0], ""] + Self.input.dropFirst())
        defer { harness.remove() }
        let id = try await submit(harness, input)
        // The uploaded file: the Batch API's lines, composed with the preset, in the input's order.
        let uploaded = try jsonLines(String(decoding: try #require(batches.file("file-1")), as: UTF8.self))
        #expect(uploaded.map { $0["custom_id"]?.stringValue } == ["hi", "bad", "grace", "raw"])
        #expect(uploaded[0]["body"]?["instructions"] == "Greet Ada.")
        #expect(uploaded[2]["body"]?["instructions"] == "Greet Grace.")
        #expect(uploaded[3]["body"] == ["model": "gpt-4.1-mini", "input": "as written"])
        let upload = try #require(server.requests.first { $0.path == "/v1/files" })
        #expect(String(decoding: upload.body, as: UTF8.self).contains("name=\"purpose\"\r\n\r\nbatch\r\n"))

        let list = try await harness.run(["batch", "list"])
        #expect(list.stdout.contains(id) && list.stdout.contains("validating"), "\(list)")
        let status = try await harness.run(["batch", "status", id])
        #expect(status.status == 0 && status.stdout.contains("batch \(id): validating"), "\(status)")
        let wait = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        #expect(wait.status == 0, "\(wait.stderr)")
        #expect(wait.stderr.contains("\(id) in_progress: 1/4 done"), "\(wait.stderr)")
        #expect(wait.stdout.contains("batch \(id) completed: 3 completed, 1 failed of 4."), "\(wait.stdout)")

        let out = harness.home.appendingPathComponent("out.jsonl").path
        let results = try await harness.run(["batch", "results", id, "-o", out])
        #expect(results.status == 0, "\(results.stderr)")
        #expect(results.stderr.contains("3 completed, 1 failed; written to \(out)"), "\(results.stderr)")
        let lines = try jsonLines(try String(contentsOfFile: out, encoding: .utf8))
        let byID = Dictionary(uniqueKeysWithValues: lines.map { ($0["id"]?.stringValue ?? "", $0) })
        #expect(byID["hi"]?["line"] == 1 && byID["bad"]?["line"] == 3 && byID["raw"]?["line"] == 5, "\(lines)")
        #expect(byID["hi"]?["status"] == "completed")
        #expect(byID["hi"]?["output_text"] == "echo: Say hi")
        #expect(byID["bad"]?["status"] == "failed")
        #expect(byID["bad"]?["error"] == "Invalid input: FAIL is not allowed")
        // gpt-4.1-mini: 1,000 input tokens at $0.40 and 500 output at $1.60 per 1M, half at the batch price.
        #expect(abs((byID["hi"]?["cost"]?.doubleValue ?? 0) - 0.0006) < 1e-9, "\(String(describing: byID["hi"]))")

        // Recorded once, however often the results are read.
        _ = try await harness.run(["batch", "results", id])
        let listed = try await harness.run(["inspect", "list", "--batch", id, "--json"])
        let rows = try JSONValue.parse(listed.stdout).arrayValue ?? []
        #expect(rows.count == 4, "\(listed.stdout)")
        #expect(rows.allSatisfy { $0["batch_id"]?.stringValue == id && $0["source"] == "batch" })
        let hi = try #require(rows.first { $0["response_id"] == "resp_b0" })
        #expect(abs((hi["cost_usd"]?.doubleValue ?? 0) - 0.0006) < 1e-9, "\(hi)")
        #expect(hi["preset"] == "greeter")
        #expect(hi["duration_ms"] == .null, "no per-request time is claimed")
        #expect(rows.contains { $0["state"] == "failed" && $0["status"] == 400 })
        let shown = try await harness.run(["inspect", "show", "\(hi["id"]?.intValue ?? 0)", "--json"])
        #expect(shown.stdout.contains("Greet Ada."), "the request body is the composed line's")

        // The ledger: the batch, its input, output and error files; `ledger gc` deletes the files.
        let ledger = try JSONValue.parse(try await harness.run(["ledger", "list", "--json"]).stdout).arrayValue ?? []
        #expect(ledger.contains { $0["id"]?.stringValue == id && $0["type"] == "batch" }, "\(ledger)")
        #expect(ledger.filter { $0["type"] == "file" }.count == 3, "\(ledger)")
        let gc = try await harness.run(["ledger", "gc", "--older-than", "2099-01-01", "--yes"])
        #expect(gc.status == 0, "\(gc.stderr)")
        #expect(gc.stdout.contains("batch \(id) had ended; forgotten"), "\(gc.stdout)")
        #expect(batches.fileIDs.isEmpty, "\(batches.fileIDs)")
        await server.stop()
    }
}
