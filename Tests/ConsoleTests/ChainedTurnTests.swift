import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing
import Workbench

@testable import Console

@Suite("Conversation chaining")
struct ChainedTurnTests {
    @Test func secondTurnCarriesTheFirstResponseID() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let context = try harness.context(output: RecordingOutput(), diagnostics: RecordingOutput())
        var conversation = Conversation(sessionID: "session-42")
        let settings = TurnSettings(model: "openai/echo")
        for input in ["first", "second"] {
            let request = PayloadBuilder().build(settings: settings, conversation: conversation, input: input)
            var renderer = TurnRenderer(output: RecordingOutput())
            let outcome = await TurnRunner(client: context.client).run(
                request, context: ExchangeContext(session: conversation.sessionID), renderer: &renderer)
            #expect(outcome.error == nil)
            conversation.record(input: .string(input), response: outcome.response)
        }
        await context.shutdown()
        await server.stop()
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].jsonBody?["previous_response_id"] == nil)
        #expect(requests[1].jsonBody?["previous_response_id"] as? String == "resp_1")

        let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        let rows = try await store.recentExchanges()
        #expect(rows.map(\.responseId) == ["resp_2", "resp_1"])
        #expect(rows.allSatisfy { $0.session == "session-42" && $0.state == "completed" })
        let newest = try #require(rows.first)
        let second = try #require(try await store.exchange(id: newest.id))
        #expect(try JSONValue.parse(second.requestBody)["previous_response_id"] == "resp_1")
    }
}
