import Foundation
import ResponsesAPI
import Spawning
import TestSupport
import Testing

/// `openresponses batch` when a batch does not simply complete: expired, cancelled, a `wait` killed and started
/// again; and a submit that sends nothing (a bad line, `--dry-run`, no `--yes` off a terminal).
@Suite("batch endings")
struct BatchEndingsTests {
    let helper = BatchCommandTests()

    @Test func anExpiredBatchSaysSoAndItsUnrunRequestsAreInTheResults() async throws {
        let batches = BatchServer(progressSteps: 1)
        let server = try await LoopbackServer.start(route: batches.route)
        let lines = (1...4).map { #"{"id": "q\#($0)", "input": "EXPIRE soon \#($0)"}"# }
        let (harness, input) = try helper.harness(server, lines: lines)
        defer { harness.remove() }
        let id = try await helper.submit(harness, input)
        let wait = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        #expect(wait.status == 1, "\(wait)")
        #expect(wait.stdout.contains("batch \(id) expired: 2 completed, 0 failed of 4."), "\(wait.stdout)")
        let results = try await harness.run(["batch", "results", id])
        let byID = Dictionary(
            uniqueKeysWithValues: try helper.jsonLines(results.stdout).map { ($0["id"]?.stringValue ?? "", $0) })
        #expect(byID["q1"]?["status"] == "completed" && byID["q2"]?["status"] == "completed")
        #expect(byID["q4"]?["status"] == "failed")
        #expect(byID["q4"]?["error"] == "This request was not run: the batch expired.", "\(results.stdout)")
        await server.stop()
    }

    @Test func aCancelledBatchListsWhatNeverRan() async throws {
        let batches = BatchServer(progressSteps: 50)
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try helper.harness(server)
        defer { harness.remove() }
        let id = try await helper.submit(harness, input)
        let cancel = try await harness.run(["batch", "cancel", id])
        #expect(cancel.status == 0 && cancel.stdout.contains("batch \(id) is cancelling"), "\(cancel)")
        let wait = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        #expect(wait.status == 1 && wait.stdout.contains("batch \(id) cancelled"), "\(wait)")
        let results = try await harness.run(["batch", "results", id])
        let statuses = try helper.jsonLines(results.stdout).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["completed", "failed", "not_run", "not_run"], "\(results.stdout)")
        #expect(results.stdout.contains(#""error":"no result: the batch cancelled""#), "\(results.stdout)")
        let again = try await harness.run(["batch", "cancel", id])
        #expect(again.status == 1 && again.stderr.contains("Cannot cancel a batch with status 'cancelled'"), "\(again)")
        await server.stop()
    }

    @Test func waitKilledAndStartedAgainFollowsTheSameBatch() async throws {
        let batches = BatchServer(progressSteps: 2, holds: true)
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try helper.harness(server)
        defer { harness.remove() }
        let id = try await helper.submit(harness, input)
        func asked() -> Int { server.requests.filter { $0.method == "GET" && $0.path == "/v1/batches/\(id)" }.count }
        let first = try RunningChild(
            ChildProcess(
                Subprocess.openresponsesBinary, ["batch", "wait", id, "--interval", "0.05"],
                environment: harness.variables))
        let deadline = ContinuousClock.now + .seconds(60)
        while asked() < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        kill(first.pid, SIGKILL)
        _ = await first.stop()
        let before = asked()
        #expect(before >= 4, "the first wait was killed while the batch ran (\(before) asks)")
        batches.release()
        let second = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("batch \(id) completed: 3 completed, 1 failed of 4."), "\(second.stdout)")
        #expect(!second.stderr.contains("validating"), "it picked up where the batch was: \(second.stderr)")
        await server.stop()
    }

    @Test func ctrlCStopsWaitingAndSaysHowToGoOn() async throws {
        let batches = BatchServer(progressSteps: 1000)
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try helper.harness(server)
        defer { harness.remove() }
        let id = try await helper.submit(harness, input)
        let child = try RunningChild(
            ChildProcess(
                Subprocess.openresponsesBinary, ["batch", "wait", id, "--interval", "0.05"],
                environment: harness.variables))
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requests.filter({ $0.method == "GET" }).count < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(child.pid, SIGINT)
        var errors: [UInt8] = []
        for await chunk in child.errors { errors += chunk }
        let text = String(decoding: errors, as: UTF8.self)
        #expect(await child.stop() == .exited(130), "\(text)")
        #expect(
            text.contains("Stopped waiting for \(id); it goes on on the server (openresponses batch wait \(id)"),
            "\(text)")
        await server.stop()
    }

    @Test func nothingIsSentForABadLineADryRunOrNoYesOffATerminal() async throws {
        let batches = BatchServer()
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try helper.harness(
            server,
            lines: BatchCommandTests.input + [
                #"{"id": "hi", "input": "again"}"#, #"{"input": "x", "vars": {"name": null}}"#,
            ])
        defer { harness.remove() }
        let bad = try await harness.run(["batch", "submit", "--preset", "greeter", input, "--yes"])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("prompts.jsonl:5: id: the id \"hi\" is taken"), "\(bad.stderr)")
        #expect(
            bad.stderr.contains("prompts.jsonl:6: vars.name: a variable's value is text, not null"), "\(bad.stderr)")
        let (good, goodInput) = try helper.harness(server)
        defer { good.remove() }
        let dry = try await good.run(["batch", "submit", "--preset", "greeter", goodInput, "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("4 requests"), "\(dry.stderr)")
        #expect(dry.stderr.contains("gpt-4.1-mini: 4 requests, ~"), "\(dry.stderr)")
        #expect(dry.stderr.contains("Nothing was uploaded (--dry-run)."), "\(dry.stderr)")
        let unasked = try await good.run(["batch", "submit", "--preset", "greeter", goodInput])
        #expect(unasked.status == 2 && unasked.stderr.contains("pass --yes"), "\(unasked)")
        #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
        await server.stop()
    }
}

/// A server's batch id is never a path: `../../` in it writes nothing outside the data directory's `batches/`.
@Suite("batch hostile server")
struct BatchHostileServerTests {
    @Test func aBatchIdWithSlashesNamesNoFile() async throws {
        let batches = BatchServer(progressSteps: 1, idPrefix: "../../escaped")
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try BatchCommandTests().harness(server)
        defer { harness.remove() }
        let submit = try await harness.run(["batch", "submit", "--preset", "greeter", input, "--yes"])
        #expect(submit.status == 0, "\(submit)")
        #expect(submit.stderr.contains("the server's batch id is not a file name"), "\(submit.stderr)")
        let id = "../../escaped2"
        let wait = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        #expect(wait.status == 0, "\(wait)")
        let results = try await harness.run(["batch", "results", id])
        #expect(results.status == 1, "\(results)")
        #expect(results.stderr.contains("the server's batch id is not a name to keep files under"), "\(results.stderr)")
        let names = try FileManager.default.subpathsOfDirectory(atPath: harness.home.path)
        #expect(!names.contains { $0.contains("escaped") }, "\(names)")
        let parent = harness.home.deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("escaped2.jsonl").path))
        await server.stop()
    }
}

/// What a batch keeps on this machine never holds a secret the preset's `${VARIABLE}` filled in for the server.
@Suite("batch secrets")
struct BatchSecretsTests {
    @Test func anMCPToolsHeaderFromTheEnvironmentIsNotKept() async throws {
        let batches = BatchServer(progressSteps: 1)
        let server = try await LoopbackServer.start(route: batches.route)
        var (harness, input) = try BatchCommandTests().harness(server)
        defer { harness.remove() }
        let secret = "ghp_batch_secret_0123456789"
        harness.extraVariables["GITHUB_TOKEN"] = secret
        try """
        version: 1
        model: gpt-4.1-mini
        instructions: Greet {{name}}.
        variables:
          name: Ada
        tools:
          - type: mcp
            server_label: gh
            server_url: https://example.com/mcp
            require_approval: never
            headers:
              Authorization: "Bearer ${GITHUB_TOKEN}"
        """.write(
            to: harness.home.appendingPathComponent("presets/greeter.yaml"), atomically: true, encoding: .utf8)
        let submit = try await harness.run(["batch", "submit", "--preset", "greeter", input, "--yes", "--json"])
        #expect(submit.status == 0, "\(submit)")
        let id = try #require(try JSONValue.parse(submit.stdout)["id"]?.stringValue)
        // The server got it (it needs it); the data directory does not keep it, nor after the results.
        #expect(String(decoding: try #require(batches.file("file-1")), as: UTF8.self).contains(secret))
        #expect(try !harness.dataDirectoryContains(secret))
        _ = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        let results = try await harness.run([
            "batch", "results", id, "-o", harness.home.appendingPathComponent("o.jsonl").path,
        ])
        #expect(results.status == 0, "\(results)")
        #expect(try !harness.dataDirectoryContains(secret))
        await server.stop()
    }
}

extension BatchHostileServerTests {
    @Test func aResultTheServerRepeatsIsWrittenAndRecordedOnce() async throws {
        let batches = BatchServer(progressSteps: 1, repeatsFirstResult: true)
        let server = try await LoopbackServer.start(route: batches.route)
        let (harness, input) = try BatchCommandTests().harness(server)
        defer { harness.remove() }
        let id = try await BatchCommandTests().submit(harness, input)
        _ = try await harness.run(["batch", "wait", id, "--interval", "0.05"])
        let results = try await harness.run(["batch", "results", id])
        let ids = try BatchCommandTests().jsonLines(results.stdout).compactMap { $0["id"]?.stringValue }
        #expect(ids.sorted() == ["bad", "grace", "hi", "raw"], "\(results.stdout)")
        #expect(results.stderr.contains("\(id).output.jsonl:2: a second result for hi, left out"), "\(results.stderr)")
        let listed = try await harness.run(["inspect", "list", "--batch", id, "--json"])
        #expect((try JSONValue.parse(listed.stdout).arrayValue ?? []).count == 4, "\(listed.stdout)")
        await server.stop()
    }
}
