import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

@testable import Console

/// Text that arrives only in the final events (some compatible servers, trimmed recordings) is shown,
/// once; text whose deltas and final events agree is shown once, unchanged. Served over loopback.
@Suite("Answers whose text arrives late")
struct LateTextTests {
    static let answer = "Grüße aus Zürich — 東京 and 🚀 too, in one answer"

    /// The frames of `Fixtures.textStream` for `answer`, less those whose type `drop` says.
    static func frames(dropping drop: (String) -> Bool) -> [String] {
        Fixtures.textStream(id: "resp_late", text: answer).filter { frame in
            let type = (frame.split(separator: "\n").first ?? "").dropFirst("event: ".count)
            return !drop(String(type))
        }
    }

    static func shown(_ frames: [String]) async throws -> (text: String, outcome: TurnOutcome) {
        let server = try await LoopbackServer.start { _ in .sse(frames) }
        let configuration = Configuration(baseURL: server.baseURL, apiKey: "sk-late", readTimeout: .seconds(60))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport)
        let output = RecordingOutput()
        var renderer = TurnRenderer(output: output)
        var request = CreateResponseRequest(model: "m", input: "hi")
        request.stream = true
        let outcome = await TurnRunner(client: client).run(request, context: ExchangeContext(), renderer: &renderer)
        renderer.finish(response: outcome.response)
        await transport.shutdown()
        await server.stop()
        return (output.text, outcome)
    }

    @Test func textOnlyInTheDoneEventAndTheTerminalEventIsShownOnce() async throws {
        let (text, outcome) = try await Self.shown(Self.frames { $0 == "response.output_text.delta" })
        #expect(outcome.error == nil)
        #expect(text == Self.answer + "\n")
        #expect(outcome.text == Self.answer)
    }

    @Test func textOnlyInTheTerminalEventIsShownOnce() async throws {
        let (text, _) = try await Self.shown(
            Self.frames { $0 == "response.output_text.delta" || $0.hasSuffix(".done") })
        #expect(text == Self.answer + "\n")
    }

    @Test func deltasThatAgreeWithTheFinalEventsAreShownOnceUnchanged() async throws {
        let (text, outcome) = try await Self.shown(Self.frames { _ in false })
        #expect(text == Self.answer + "\n")
        #expect(outcome.text == Self.answer)
    }

    @Test func theRestOfAPartWhoseDeltasStoppedEarlyIsShownOnce() async throws {
        var seen = 0
        let frames = Fixtures.textStream(id: "resp_late", text: Self.answer).filter { frame in
            guard frame.hasPrefix("event: response.output_text.delta") else { return true }
            seen += 1
            return seen <= 3
        }
        let (text, _) = try await Self.shown(frames)
        #expect(text == Self.answer + "\n")
    }
}
