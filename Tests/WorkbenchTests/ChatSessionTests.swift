import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// A chat session without a terminal, against a loopback server: a plain turn, function tools approved and
/// refused, an MCP approval, a cancelled turn, a chained second turn.
@Suite("Chat session")
struct ChatSessionTests {
    /// A function tool with a local handler that upper-cases its arguments; not trusted unless said.
    static func shoutTool(trusted: Bool = false) -> JSONObject {
        [
            "tools": [
                [
                    "type": "function", "name": "local_time", "parameters": ["type": "object"],
                    "handler": ["command": ["tr", "a-z", "A-Z"], "timeout_seconds": 5, "trusted": .bool(trusted)],
                ]
            ]
        ]
    }

    /// Answers a function call first, then (when the input carries its output) the output as text.
    static func functionRoute(counter: Counter) -> LoopbackServer.Route {
        { request in
            let id = "resp_\(counter.next())"
            if let output = ChatSessionHarness.inputItems(request).first(where: {
                $0["type"] as? String == "function_call_output"
            }) {
                return .sse(
                    Fixtures.textStream(
                        id: id, text: "result: \(output["output"] as? String ?? "?")",
                        previousResponseID: request.jsonBody?["previous_response_id"] as? String))
            }
            return .sseFixture("stream-function-call.sse")
        }
    }

    @Test func aPlainTurnAnswersAndRecordsTheResponse() async throws {
        let server = try await LoopbackServer.start { request in
            .sse(Fixtures.textStream(id: "resp_1", text: "hello back"))
        }
        var session = ChatSessionHarness.session(server: server, template: ["temperature": 0.5])
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: true)
        let outcome = await session.send("hello", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(outcome.error == nil)
        #expect(outcome.response?.id == "resp_1")
        #expect(renderer.text == "hello back")
        #expect(renderer.finishedRequests == 1)
        #expect(session.conversation.lastResponseID == "resp_1")
        let body = try #require(server.requests.first?.jsonBody)
        #expect(body["input"] as? String == "hello")
        #expect(body["model"] as? String == "m")
        #expect(body["temperature"] as? Double == 0.5)
        #expect(body["stream"] as? Bool == true)
        #expect(delegate.asked.isEmpty && delegate.events.isEmpty)
    }

    @Test func anApprovedFunctionRunsItsHandlerAndTheTurnGoesOn() async throws {
        let server = try await LoopbackServer.start(route: Self.functionRoute(counter: Counter()))
        var session = ChatSessionHarness.session(server: server, template: Self.shoutTool())
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: true)
        let outcome = await session.send("what time is it?", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(outcome.error == nil)
        #expect(delegate.asked == [.function(name: "local_time", arguments: #"{"timezone":"UTC"}"#)])
        #expect(delegate.events == [.functionOutput(name: "local_time", text: #"{"TIMEZONE":"UTC"}"#)])
        #expect(server.requests.count == 2)
        let second = try #require(server.requests.last)
        let output = try #require(ChatSessionHarness.inputItems(second).first)
        #expect(output["type"] as? String == "function_call_output")
        #expect(output["call_id"] as? String == "call_1")
        #expect(output["output"] as? String == #"{"TIMEZONE":"UTC"}"#)
        #expect(second.jsonBody?["previous_response_id"] as? String == "resp_f1")
        #expect(renderer.text == #"result: {"TIMEZONE":"UTC"}"#)
        #expect(renderer.finishedRequests == 2)
    }

    @Test func aRefusedFunctionIsNotRunAndTheModelIsTold() async throws {
        let server = try await LoopbackServer.start(route: Self.functionRoute(counter: Counter()))
        var session = ChatSessionHarness.session(server: server, template: Self.shoutTool())
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: false)
        _ = await session.send("what time is it?", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(delegate.events == [.functionNotRun(name: "local_time")])
        let last = try #require(server.requests.last)
        let output = try #require(ChatSessionHarness.inputItems(last).first)
        #expect(output["output"] as? String == #"{"error":"the user declined to run local_time"}"#)
    }

    @Test func aTrustedFunctionRunsWithoutAsking() async throws {
        let server = try await LoopbackServer.start(route: Self.functionRoute(counter: Counter()))
        var session = ChatSessionHarness.session(server: server, template: Self.shoutTool(trusted: true))
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: false)
        _ = await session.send("what time is it?", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(delegate.asked.isEmpty)
        #expect(server.requests.count == 2)
    }

    @Test(arguments: [true, false])
    func anMCPApprovalRequestIsPutToTheDelegate(answer: Bool) async throws {
        let counter = Counter()
        let server = try await LoopbackServer.start { request in
            if ChatSessionHarness.inputItems(request).contains(where: {
                $0["type"] as? String == "mcp_approval_response"
            }) {
                return .sse(
                    Fixtures.textStream(
                        id: "resp_\(counter.next())", text: "done",
                        previousResponseID: request.jsonBody?["previous_response_id"] as? String))
            }
            return ChatSessionHarness.completed(
                id: "resp_mcp",
                output:
                    #"[{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deepwiki","name":"ask_question","arguments":"{\"q\":1}"}]"#
            )
        }
        var session = ChatSessionHarness.session(server: server)
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: answer)
        let outcome = await session.send("ask the wiki", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(outcome.response?.outputText == "done")
        #expect(delegate.asked == [.mcp(server: "deepwiki", name: "ask_question", arguments: #"{"q":1}"#)])
        #expect(
            delegate.events == [
                answer
                    ? .mcpApproved(server: "deepwiki", name: "ask_question")
                    : .mcpDenied(server: "deepwiki", name: "ask_question")
            ])
        let last = try #require(server.requests.last)
        let reply = try #require(ChatSessionHarness.inputItems(last).first)
        #expect(reply["approval_request_id"] as? String == "mcpr_1")
        #expect(reply["approve"] as? Bool == answer)
    }

    @Test func aCancelledTurnKeepsThePartialTextAndDoesNotAdvanceTheConversation() async throws {
        // Three words at once, then a stream that stalls: the turn is cancelled while it waits.
        let frames = Fixtures.textStream(id: "resp_slow", text: "w1 w2 w3 w4 w5")
        let server = try await LoopbackServer.start { _ in
            Reply(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                parts: [
                    .bytes(Array(frames.prefix(7).joined().utf8)), .pause(.seconds(30)),
                    .bytes(Array(frames.dropFirst(7).joined().utf8)),
                ])
        }
        let session = ChatSessionHarness.session(server: server)
        let task = Task { () -> (ChatSession, TurnOutcome, String) in
            var session = session
            var renderer = TextRenderer()
            let outcome = await session.send(
                "go slowly", renderer: &renderer, delegate: RecordingDelegate(answer: true))
            return (session, outcome, renderer.text)
        }
        try await Deadline.poll("the request reaches the server") { server.requests.count == 1 }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let (after, outcome, text) = try await Deadline.run("the cancelled turn ends") { await task.value }
        await server.stop()
        #expect(outcome.wasCancelled)
        #expect(text == "w1 w2 w3 ")
        #expect(after.conversation.lastResponseID == nil)
    }

    @Test func aSecondTurnChainsToTheFirst() async throws {
        let counter = Counter()
        let server = try await LoopbackServer.start { request in
            let id = "resp_\(counter.next())"
            return .sse(
                Fixtures.textStream(
                    id: id, text: "ok", previousResponseID: request.jsonBody?["previous_response_id"] as? String))
        }
        var session = ChatSessionHarness.session(server: server)
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: true)
        _ = await session.send("first", renderer: &renderer, delegate: delegate)
        _ = await session.send("second", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(server.requests.count == 2)
        #expect(server.requests.first?.jsonBody?["previous_response_id"] == nil)
        #expect(server.requests.last?.jsonBody?["previous_response_id"] as? String == "resp_1")
        #expect(session.conversation.lastResponseID == "resp_2")
        #expect(delegate.events.isEmpty)
    }
}
