import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

@testable import Console

@Suite("ask")
struct AskRunnerTests {
    func ask(
        _ options: AskOptions, route: @escaping LoopbackServer.Route, extra: [String: String] = [:]
    ) async throws -> (ResponsesAPI.ExitStatus, String, String, [ReceivedRequest]) {
        let server = try await LoopbackServer.start(route: route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        var variables = harness.variables
        variables.merge(extra) { $1 }
        let context = try ConsoleContext(
            environment: AppEnvironment(variables: variables), output: output, diagnostics: diagnostics)
        let status = await AskRunner(context: context).run(options)
        await context.shutdown()
        await server.stop()
        _ = harness
        return (status, output.text, diagnostics.text, server.requests)
    }

    @Test func streamsTheAnswerAndExitsZero() async throws {
        let (status, out, err, requests) = try await ask(
            AskOptions(prompt: "hello there", stdinText: nil, model: "openai/echo", instructions: "Be brief"),
            route: echoRoute(counter: Counter()))
        #expect(status == .success)
        #expect(out == "echo: hello there\n")
        #expect(err.isEmpty)
        let body = try #require(requests.first?.jsonBody)
        #expect(body["model"] as? String == "openai/echo")
        #expect(body["instructions"] as? String == "Be brief")
        #expect(body["stream"] as? Bool == true)
    }

    @Test func pipedTextIsAppendedAsContext() async throws {
        let (status, out, _, requests) = try await ask(
            AskOptions(prompt: "summarize", stdinText: "line one\nline two\n"), route: echoRoute(counter: Counter()))
        #expect(status == .success)
        #expect(requests.first?.jsonBody?["input"] as? String == "summarize\n\nline one\nline two")
        #expect(out.hasPrefix("echo: summarize"))
        let (_, _, _, pipedOnly) = try await ask(
            AskOptions(prompt: nil, stdinText: "only piped\n"), route: echoRoute(counter: Counter()))
        #expect(pipedOnly.first?.jsonBody?["input"] as? String == "only piped")
    }

    @Test func noPromptIsAUsageError() async throws {
        let (status, _, err, requests) = try await ask(
            AskOptions(prompt: "  ", stdinText: ""), route: echoRoute(counter: Counter()))
        #expect(status == .usage)
        #expect(err.contains("ask needs a prompt"))
        #expect(requests.isEmpty)
    }

    @Test func noStreamPrintsTheWholeAnswer() async throws {
        let (status, out, _, requests) = try await ask(
            AskOptions(prompt: "whole", stdinText: nil, stream: false), route: echoRoute(counter: Counter()))
        #expect(status == .success)
        #expect(out == "echo: whole\n")
        #expect(requests.first?.jsonBody?["stream"] as? Bool == false)
    }

    @Test func jsonPrintsTheFinalResponseObject() async throws {
        let (status, out, _, _) = try await ask(
            AskOptions(prompt: "as json", stdinText: nil, printJSON: true), route: echoRoute(counter: Counter()))
        #expect(status == .success)
        let json = try JSONValue.parse(Array(out.utf8))
        #expect(json["id"] == "resp_1")
        #expect(json["object"] == "response")
        #expect(Response(json: json).outputText == "echo: as json")
    }

    @Test func httpErrorExitsOneWithTheMessageAndRequestID() async throws {
        let (status, out, err, _) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil),
            route: { _ in .jsonFixture("error-model-not-found.json", status: 404, headers: [("x-request-id", "req_e1")])
            })
        #expect(status == .apiError)
        #expect(out.isEmpty)
        #expect(err.contains("HTTP 404"))
        #expect(err.contains("does not exist"))
        #expect(err.contains("req_e1"))
    }

    @Test func incompleteExitsThree() async throws {
        let (status, out, err, _) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil), route: { _ in .sseFixture("stream-incomplete.sse") })
        #expect(status == .incomplete)
        #expect(out == "Cut short\n")
        #expect(err.contains("incomplete: max_output_tokens"))
    }

    @Test func failedResponseExitsOneAndKeepsPartialText() async throws {
        let (status, out, err, _) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil), route: { _ in .sseFixture("stream-error-then-failed.sse") })
        #expect(status == .apiError)
        #expect(out == "Partial \n")
        #expect(err.contains("server_error"))
    }

    @Test func missingKeyWithOpenAIBaseURLSaysHowToSetIt() async throws {
        let (status, _, err, requests) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil), route: echoRoute(counter: Counter()),
            extra: ["OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""])
        #expect(status == .usage)
        #expect(err.contains("OPENAI_API_KEY is not set"))
        #expect(requests.isEmpty)
    }

    @Test func presetSuppliesModelInstructionsAndOtherFields() async throws {
        let presets = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: presets) }
        try """
        version: 1
        name: terse
        description: Short answers
        model: preset-model
        instructions: Answer in five words.
        max_output_tokens: 50
        """.write(to: presets.appendingPathComponent("terse.yaml"), atomically: true, encoding: .utf8)
        let (status, _, _, requests) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil, preset: "terse"), route: echoRoute(counter: Counter()),
            extra: ["OPENRESPONSES_PRESETS_DIR": presets.path])
        #expect(status == .success)
        let body = try #require(requests.first?.jsonBody)
        #expect(body["model"] as? String == "preset-model")
        #expect(body["instructions"] as? String == "Answer in five words.")
        #expect(body["max_output_tokens"] as? Int == 50)

        let (missing, _, err, _) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil, preset: "nope"), route: echoRoute(counter: Counter()),
            extra: ["OPENRESPONSES_PRESETS_DIR": presets.path])
        #expect(missing == .usage)
        #expect(err == "error: no preset named 'nope'; known: terse\n")
    }

    @Test func dryRunPrintsTheExactBodyAndSendsNothing() async throws {
        let (status, out, err, requests) = try await ask(
            AskOptions(
                prompt: "plan a trip", stdinText: nil, model: "gpt-5.1",
                assignments: ["reasoning.effort=high", "reasoning.summary=detailed", "max_output_tokens=400"],
                dryRun: true),
            route: echoRoute(counter: Counter()))
        #expect(status == .success)
        #expect(err.isEmpty)
        #expect(requests.isEmpty)
        let body = try JSONValue.parse(out)
        #expect(body["model"] == "gpt-5.1")
        #expect(body["reasoning"] == ["effort": "high", "summary": "detailed"])
        #expect(body["max_output_tokens"] == 400)
        #expect(body["stream"] == true)
    }

    @Test func setSendsTheSettingsAndABadOneIsAUsageError() async throws {
        let (status, _, _, requests) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil, assignments: ["temperature=0.2", "store=false"]),
            route: echoRoute(counter: Counter()))
        #expect(status == .success)
        #expect(requests.first?.jsonBody?["temperature"] as? Double == 0.2)
        #expect(requests.first?.jsonBody?["store"] as? Bool == false)
        let (bad, _, err, none) = try await ask(
            AskOptions(prompt: "hi", stdinText: nil, assignments: ["reasoning.efort=low"]),
            route: echoRoute(counter: Counter()))
        #expect(bad == .usage)
        #expect(
            err.contains(
                "--set reasoning.efort=low: unknown setting 'reasoning.efort' (did you mean reasoning.effort?)"))
        #expect(none.isEmpty)
    }
}
