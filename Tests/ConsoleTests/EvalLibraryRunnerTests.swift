import Foundation
import Library
import ResponsesAPI
import TestSupport
import Testing
import Workbench

@testable import Console

/// `cites:` over library cases (answered through the model, and without one when there is no key) and
/// `judge:` over a judge route, against the loopback server.
@Suite("eval library and judge")
struct EvalLibraryRunnerTests {
    /// A library question is answered citing its first passage; a judge (asked with the judgement format)
    /// grades an answer naming Ada 0.9, one naming Bob with prose, any other 0.2.
    static let route: LoopbackServer.Route = { request in
        let body = (try? JSONValue.parse(request.body)) ?? .null
        if body["text"]?["format"]?["name"]?.stringValue == "judgement" {
            return answeringRoute { _, input in
                let answer = input.components(separatedBy: "<answer>").last ?? ""
                if answer.contains("Ada") { return #"{"score": 0.9, "reason": "names Ada"}"# }
                if answer.contains("Bob") { return "I would say about 0.8." }
                return #"{"score": 0.2, "reason": "names <b>nobody</b>"}"#
            }(request)
        }
        return answeringRoute { _, input in
            input.contains("Pelicans")
                ? "Pelicans eat fish [1]." : "Hello, \(input.replacingOccurrences(of: "Say hello to ", with: ""))!"
        }(request)
    }

    /// The harness's home with two notes added to its library.
    func withLibrary(_ harness: ConsoleHarness) async throws {
        let notes = harness.home.appendingPathComponent("notes", isDirectory: true)
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "# Pelicans\n\nPelicans eat fish. They scoop fish from the sea with their pouches.\n".write(
            to: notes.appendingPathComponent("pelicans.md"), atomically: true, encoding: .utf8)
        try "# Owls\n\nOwls hunt mice at night. Their hearing is sharp.\n".write(
            to: notes.appendingPathComponent("owls.md"), atomically: true, encoding: .utf8)
        let io = CommandIO(
            environment: AppEnvironment(variables: harness.variables), output: RecordingOutput(),
            diagnostics: RecordingOutput())
        let status = await LibraryRunner(io).add([notes.path], options: LibraryOptions())
        try #require(status == .success)
    }

    static let librarySuite = """
        version: 1
        library: true
        cases:
          - id: fish
            input: "What do pelicans eat?"
            expect: [{cites: pelicans.md}, {contains: fish}]
          - id: wrong-document
            input: "What do pelicans eat?"
            expect: [{cites: [owls.md]}]
        """

    func evaluate(_ harness: ConsoleHarness, _ suite: String, variables: [String: String]? = nil) async throws
        -> (ResponsesAPI.ExitStatus, JSONValue, String)
    {
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let file = harness.home.appendingPathComponent("suite.yaml")
        try suite.write(to: file, atomically: true, encoding: .utf8)
        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        let context = try ConsoleContext(
            environment: AppEnvironment(variables: variables ?? harness.variables), output: output,
            diagnostics: diagnostics)
        let status = await EvalRunner(context: context).run(EvalRequest(suitePath: file.path, json: true))
        await context.shutdown()
        return (status, (try? JSONValue.parse(output.text)) ?? .null, diagnostics.text)
    }

    @Test func citesHoldsForALibraryAnswerThroughTheModel() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try await withLibrary(harness)
        let (status, report, errors) = try await evaluate(harness, Self.librarySuite)
        await server.stop()
        let rows = report["cases"]?.arrayValue ?? []
        #expect(rows.map { $0["passed"]?.boolValue ?? true } == [true, false], "\(errors)\n\(report)")
        #expect(status == .apiError)
        #expect(rows.last?["failures"]?[0]?["seen"] == "owls.md not cited; cited: pelicans.md")
        #expect(rows.first?["citations"]?[0]?["path"]?.stringValue?.hasSuffix("notes/pelicans.md") == true)
        // The model was sent the question with the library's passages as numbered context.
        let inputs = server.requests.compactMap { try? JSONValue.parse($0.body)["input"]?.stringValue }
        #expect(inputs.count == 2 && inputs.allSatisfy { $0.contains("scoop fish") }, "\(inputs)")
    }

    @Test func withNoKeyALibraryCaseIsTheAnswerWithoutAModel() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try await withLibrary(harness)
        var variables = harness.variables
        variables["OPENAI_API_KEY"] = nil
        variables["OPENAI_BASE_URL"] = nil
        let (status, report, errors) = try await evaluate(harness, Self.librarySuite, variables: variables)
        await server.stop()
        let rows = report["cases"]?.arrayValue ?? []
        #expect(rows.map { $0["passed"]?.boolValue ?? true } == [true, false], "\(errors)\n\(report)")
        #expect(status == .apiError)
        #expect(rows.first?["answer"]?.stringValue?.contains("Pelicans eat fish") == true)
        #expect(server.requests.isEmpty)
    }

    @Test func aJudgeGradesEachAnswerWithItsPresetAndFormat() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try "version: 1\nmodel: judge-model\n".write(
            to: presets.appendingPathComponent("strict.yaml"), atomically: true, encoding: .utf8)
        let (status, report, errors) = try await evaluate(
            harness,
            """
            version: 1
            judge_preset: strict
            cases:
              - {id: ada, input: "Say hello to Ada", expect: [{judge: {rubric: "Greets by name"}}]}
              - {id: zed, input: "Say hello to Zed", expect: [{judge: {rubric: "Greets by name", threshold: 0.5}}]}
              - {id: bob, input: "Say hello to Bob", expect: [{judge: {rubric: "Greets by name"}}]}
            """)
        await server.stop()
        let rows = report["cases"]?.arrayValue ?? []
        #expect(rows.map { $0["passed"]?.boolValue ?? true } == [true, false, false], "\(errors)\n\(report)")
        #expect(status == .apiError)
        #expect(rows[0]["judgements"]?[0]?["score"]?.doubleValue == 0.9)
        #expect(rows[0]["judgements"]?[0]?["reason"] == "names Ada")
        #expect(rows[1]["failures"]?[0]?["seen"] == "score 0.2: \"names <b>nobody</b>\"")
        #expect(
            rows[2]["failures"]?[0]?["seen"]?.stringValue?.hasPrefix("the judge's answer is not JSON") == true,
            "\(rows[2])")
        let judged = server.requests.compactMap { try? JSONValue.parse($0.body) }.filter {
            $0["text"]?["format"]?["strict"]?.boolValue == true
        }
        #expect(judged.count == 3)
        #expect(judged.allSatisfy { $0["model"] == "judge-model" })
    }

    @Test func anUnknownJudgePresetIsASuiteError() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let (status, _, errors) = try await evaluate(
            harness, "version: 1\ncases:\n  - {id: a, input: hi, expect: [{judge: {rubric: r, preset: nosuch}}]}\n")
        await server.stop()
        #expect(status == .usage)
        #expect(errors.contains("suite.yaml:3:61: judge: unknown preset 'nosuch'"), "\(errors)")
        #expect(server.requests.isEmpty)
    }
}
