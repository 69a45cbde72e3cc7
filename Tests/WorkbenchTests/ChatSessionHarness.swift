import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Workbench

/// What a `ChatSession` test needs: a renderer that keeps the answer's text, a delegate that approves or
/// refuses as told and records what it was asked and told, and a session against a loopback server.
struct TextRenderer: TurnRendering {
    var text = ""
    var finishedRequests = 0

    mutating func render(_ event: ResponseStreamEvent) {
        if case .outputTextDelta(let delta) = event.kind { text += delta.delta }
    }

    mutating func render(response: Response) { text += response.outputText }
    mutating func flush() {}
    mutating func finish(response: Response?) { finishedRequests += 1 }
}

final class RecordingDelegate: ChatSessionDelegate {
    let answer: Bool
    private let state = Mutex<(asked: [ApprovalRequest], events: [ChatSessionEvent])>(([], []))

    init(answer: Bool) { self.answer = answer }

    var asked: [ApprovalRequest] { state.withLock { $0.asked } }
    var events: [ChatSessionEvent] { state.withLock { $0.events } }

    func approve(_ request: ApprovalRequest) async -> Bool {
        state.withLock { $0.asked.append(request) }
        return answer
    }

    func report(_ event: ChatSessionEvent) {
        state.withLock { $0.events.append(event) }
    }
}

enum ChatSessionHarness {
    /// One transport for every session test (it only needs the timeouts; each client names its server),
    /// never shut down: it lives as long as the test process.
    static let transport = AsyncHTTPClientTransport(
        configuration: Configuration(baseURL: "http://127.0.0.1", apiKey: nil, readTimeout: .seconds(60)))

    /// A session against `server`, with `template` as its preset's template (model `m` unless it says).
    static func session(server: LoopbackServer, template: JSONObject = [:]) -> ChatSession {
        let configuration = Configuration(baseURL: server.baseURL, apiKey: "sk-session-test", readTimeout: .seconds(60))
        let client = ResponsesClient(configuration: configuration, transport: transport)
        let environment = AppEnvironment(variables: ["OPENRESPONSES_HOME": "/nonexistent-openresponses-home"])
        let stack = SettingsStack(
            defaults: SettingsLayer(label: "default", template: ["model": "m"], console: ["stream": true]),
            preset: Preset(name: "test", template: template))
        return ChatSession(client: client, environment: environment, stack: stack)
    }

    /// A stream whose response (`resp_ID`) completes with `output` and nothing before it.
    static func completed(id: String, output: String) -> Reply {
        .sse([
            "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":0,\"response\":"
                + "{\"id\":\"\(id)\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"m\",\"output\":\(output)}}\n\n"
        ])
    }

    /// The `input` items of a request body.
    static func inputItems(_ request: ReceivedRequest) -> [[String: Any]] {
        request.jsonBody?["input"] as? [[String: Any]] ?? []
    }
}
