import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Testing
import Workbench

@testable import Console

/// Each assertion of `eval`, holding and failing on purpose, against the loopback server's answers.
@Suite("eval assertions")
struct EvalRunnerTests {
    /// The answer names who was greeted; `json-model` answers JSON; `slow-model` takes 300 ms.
    static let route: LoopbackServer.Route = { request in
        let body = (try? JSONValue.parse(request.body)) ?? .null
        if body["model"]?.stringValue == "slow-model" { Thread.sleep(forTimeInterval: 0.3) }
        return answeringRoute { model, input in
            if model == "json-model" { return #"{"name": "Ada", "age": 36}"# }
            return "Hello, \(input.replacingOccurrences(of: "Say hello to ", with: ""))! Nice to meet you."
        }(request)
    }

    static func write(_ harness: ConsoleHarness, _ text: String) throws -> URL {
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let file = harness.home.appendingPathComponent("suite.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func evaluate(_ cases: String, model: String = "gpt-4.1-mini", extraTop: String = "") async throws
        -> (ResponsesAPI.ExitStatus, JSONValue, String)
    {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let suite = try Self.write(harness, "version: 1\nname: unit\n\(extraTop)cases:\n" + cases)
        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        let context = try harness.context(output: output, diagnostics: diagnostics)
        let status = await EvalRunner(context: context).run(
            EvalRequest(suitePath: suite.path, models: [model], json: true))
        await context.shutdown()
        await server.stop()
        let report = (try? JSONValue.parse(output.text)) ?? .null
        return (status, report, diagnostics.text)
    }

    /// The assertions of the one case, each run as a case of its own: which passed.
    func outcomes(_ assertions: [String], model: String = "gpt-4.1-mini", input: String = "Say hello to Ada")
        async throws -> [Bool]
    {
        let cases = assertions.enumerated().map { index, assertion in
            "  - id: c\(index)\n    input: \"\(input)\"\n    expect:\n      - \(assertion)\n"
        }.joined()
        let (status, report, errors) = try await evaluate(cases, model: model)
        let rows = report["cases"]?.arrayValue ?? []
        #expect(rows.count == assertions.count, "\(errors)")
        let passed = rows.map { $0["passed"]?.boolValue ?? false }
        #expect(status == (passed.allSatisfy { $0 } ? .success : .apiError))
        return passed
    }

    @Test func textAssertionsHoldAndFail() async throws {
        let passed = try await outcomes([
            "contains: \"Ada\"", "contains: \"Bob\"", "not_contains: \"Bob\"", "not_contains: \"Ada\"",
            "regex: \"Hello, [A-Z][a-z]+!\"", "regex: \"^Goodbye\"",
            "equals: \"Hello, Ada! Nice to meet you.\"", "equals: \"Hello, Ada!\"",
        ])
        #expect(passed == [true, false, true, false, true, false, true, false])
    }

    @Test func measuredAssertionsHoldAndFail() async throws {
        // "Hello, Ada! Nice to meet you.": 6 words, 6 output tokens; gpt-4.1-mini has a price.
        let passed = try await outcomes([
            "max_tokens: 6", "max_tokens: 5", "max_cost: 0.01", "max_cost: 0.000001", "max_latency_ms: 60000",
        ])
        #expect(passed == [true, false, true, false, true])
        let slow = try await outcomes(["max_latency_ms: 100", "max_latency_ms: 30000"], model: "slow-model")
        #expect(slow == [false, true])
    }

    @Test func jsonSchemaHoldsAndFails() async throws {
        let passed = try await outcomes(
            [
                "json_schema: {type: object, required: [name, age], properties: {age: {type: integer}}}",
                "json_schema: {type: object, properties: {age: {type: string}}}",
            ], model: "json-model")
        #expect(passed == [true, false])
        let prose = try await outcomes(["json_schema: {type: object}"])
        #expect(prose == [false])
    }

    @Test func eachCaseRunsRepeatTimesInEachColumn() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let suite = try Self.write(
            harness, "version: 1\ncases:\n  - {id: a, input: hi}\n  - {id: b, input: ho, expect: [{contains: ho}]}\n")
        let output = RecordingOutput()
        let context = try harness.context(output: output, diagnostics: RecordingOutput())
        let status = await EvalRunner(context: context).run(
            EvalRequest(suitePath: suite.path, models: ["m1", "m2"], repeats: 3, concurrency: 2, json: true))
        await context.shutdown()
        await server.stop()
        #expect(status == .success)
        let rows = try JSONValue.parse(output.text)["cases"]?.arrayValue ?? []
        #expect(rows.count == 12)
        #expect(
            rows.filter { $0["id"] == "b" && $0["column"] == "model=m2" }.map { $0["attempt"]?.intValue } == [1, 2, 3])
        #expect(server.requests.count == 12)
    }

    /// How many requests the server holds at once, at most (each held 150 ms).
    final class InFlight: Sendable {
        let counts = Mutex((now: 0, most: 0, arrived: 0))

        /// The first request is held until a second one is in flight (at most 5 s, so that with one call at a
        /// time the run still ends): whether calls overlap does not hang on how fast a loaded machine is.
        var route: LoopbackServer.Route {
            { request in
                let first = self.counts.withLock {
                    $0.now += 1
                    $0.arrived += 1
                    $0.most = max($0.most, $0.now)
                    return $0.arrived == 1
                }
                let deadline = Date().addingTimeInterval(first ? 5 : 0.05)
                while Date() < deadline, self.counts.withLock({ $0.now < 2 }) { Thread.sleep(forTimeInterval: 0.01) }
                self.counts.withLock { $0.now -= 1 }
                return answeringRoute { _, _ in "ok" }(request)
            }
        }
    }

    @Test(arguments: [1, 3])
    func noMoreThanConcurrencyCallsAtOnce(concurrency: Int) async throws {
        let inFlight = InFlight()
        let server = try await LoopbackServer.start(route: inFlight.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let suite = try Self.write(harness, "version: 1\ncases:\n  - {id: a, input: hi}\n")
        let context = try harness.context(output: RecordingOutput(), diagnostics: RecordingOutput())
        let status = await EvalRunner(context: context).run(
            EvalRequest(suitePath: suite.path, repeats: 4, concurrency: concurrency, json: true))
        await context.shutdown()
        await server.stop()
        #expect(status == .success)
        #expect(server.requests.count == 4)
        // The server has two threads: with 3 allowed, two are held at once; with 1, never more than one.
        #expect(inFlight.counts.withLock { $0.most } == min(concurrency, 2))
    }

    @Test func failuresSayWhatWasSeen() async throws {
        let (status, report, _) = try await evaluate(
            "  - id: greets\n    input: \"Say hello to Ada\"\n    expect:\n      - contains: \"Bob\"\n      - max_tokens: 2\n"
        )
        #expect(status == .apiError)
        let failures = report["cases"]?[0]?["failures"]?.arrayValue ?? []
        #expect(failures.map { $0["assertion"]?.stringValue ?? "" } == ["contains: \"Bob\"", "max_tokens: 2"])
        #expect(failures.first?["seen"]?.stringValue?.contains("Hello, Ada!") == true)
        #expect(failures.last?["seen"]?.stringValue == "6 output tokens")
    }

    @Test(.enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
    func similarHoldsAndFailsWithTheModel() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        if let model = InstalledModel.minilm {
            try FileManager.default.createDirectory(
                at: harness.home.appendingPathComponent("models"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: harness.home.appendingPathComponent("models/all-MiniLM-L6-v2").path, withDestinationPath: model)
        }
        let suite = try Self.write(
            harness,
            """
            version: 1
            cases:
              - id: alike
                input: "Say hello to Ada"
                expect: [{similar: {text: "Hi Ada, pleased to meet you.", threshold: 0.6}}]
              - id: unlike
                input: "Say hello to Ada"
                expect: [{similar: {text: "Quarterly tax filings moved to April.", threshold: 0.6}}]
            """)
        let output = RecordingOutput()
        let context = try harness.context(output: output, diagnostics: RecordingOutput())
        let status = await EvalRunner(context: context).run(EvalRequest(suitePath: suite.path, json: true))
        await context.shutdown()
        await server.stop()
        let rows = try JSONValue.parse(output.text)["cases"]?.arrayValue ?? []
        #expect(status == .apiError)
        #expect(rows.map { $0["passed"]?.boolValue ?? true } == [true, false])
    }

    @Test func similarWithoutTheModelIsASuiteError() async throws {
        let (status, _, errors) = try await evaluate(
            "  - id: a\n    input: hi\n    expect:\n      - similar: {text: hello}\n")
        #expect(status == .usage)
        #expect(errors.contains("suite.yaml:7:9: similar: needs the built-in model"), "\(errors)")
    }
}
