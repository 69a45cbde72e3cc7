import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Answers like a model with tools: "cite" gets a reasoning summary, a web search and a cited answer;
/// "time" (with a local_time tool offered) gets a function call; a function_call_output gets
/// "tool said: ..."; anything else is echoed (the text of a message with attachments too).
func scriptedRoute(counter: Counter) -> LoopbackServer.Route {
    { request in
        switch (request.method, request.path) {
        case ("POST", "/v1/conversations"):
            return .json(#"{"id":"conv_1","object":"conversation","created_at":1795270000,"metadata":{}}"#)
        case ("GET", "/v1/vector_stores"):
            return .json(
                #"{"object":"list","data":[{"id":"vs_alpha","object":"vector_store","name":"alpha","status":"completed","file_counts":{"completed":2,"total":2}}],"has_more":false}"#
            )
        case ("POST", "/v1/files"):
            let purpose =
                String(decoding: request.body, as: UTF8.self).contains("\r\n\r\nvision\r\n") ? "vision" : "user_data"
            return .json(
                #"{"id":"file-up\#(counter.next())","object":"file","bytes":4,"filename":"x","purpose":"\#(purpose)"}"#)
        case ("POST", "/v1/vector_stores"):
            return .json(
                #"{"id":"vs_slow","object":"vector_store","name":"slow","status":"in_progress","file_counts":{"in_progress":1,"completed":0,"failed":0,"cancelled":0,"total":1}}"#
            )
        case ("GET", "/v1/vector_stores/vs_slow"):
            return .json(
                #"{"id":"vs_slow","object":"vector_store","name":"slow","status":"in_progress","file_counts":{"in_progress":1,"completed":0,"failed":0,"cancelled":0,"total":1}}"#
            )
        case ("GET", "/v1/files"):
            return .json(
                #"{"object":"list","data":[{"id":"file-9","object":"file","bytes":2048,"filename":"notes.pdf","purpose":"user_data"}],"has_more":false}"#
            )
        case ("POST", let path) where path.hasSuffix("/cancel"):
            return .json(#"{"id":"resp_bg","object":"response","status":"cancelled","background":true,"output":[]}"#)
        default:
            break
        }
        let body = (try? JSONValue.parse(request.body)) ?? .null
        let id = "resp_\(counter.next())"
        let previous = body["previous_response_id"]?.stringValue
        let items = body["input"]?.arrayValue ?? []
        if let approval = items.last(where: { $0["type"] == "mcp_approval_response" }) {
            return .sse(
                Fixtures.textStream(
                    id: id, text: "approved: \(approval["approve"]?.boolValue ?? false)", previousResponseID: previous))
        }
        if let output = items.last(where: { $0["type"] == "function_call_output" }) {
            return .sse(
                Fixtures.textStream(
                    id: id, text: "tool said: " + (output["output"]?.stringValue ?? ""), previousResponseID: previous))
        }
        let text: String
        if let string = body["input"]?.stringValue {
            text = string
        } else {
            let lastUser = items.last { $0["role"] == "user" }
            text =
                lastUser?["content"]?.stringValue
                ?? (lastUser?["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(
                    separator: " ")
        }
        let offersTime = (body["tools"]?.arrayValue ?? []).contains { $0["name"] == "local_time" }
        if text.contains("cite") { return .sseFixture("stream-reasoning-citation.sse") }
        if text.contains("mcp") {
            let request =
                #"{"id":"mcpr_1","type":"mcp_approval_request","server_label":"deepwiki","name":"ask_question","arguments":"{\"q\":\"x\"}"}"#
            return .sse([
                "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":\(request)}\n\n",
                "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"\(id)\",\"object\":\"response\",\"status\":\"completed\",\"output\":[\(request)]}}\n\n",
            ])
        }
        if text.contains("background") {
            var frames = Fixtures.textStream(id: "resp_bg", text: (1...40).map { "w\($0)" }.joined(separator: " "))
            for index in 0..<2 {
                frames[index] = frames[index].replacingOccurrences(
                    of: #""status":"in_progress""#, with: #""status":"in_progress","background":true"#)
            }
            return .sse(frames, pause: .milliseconds(250))
        }
        if text.contains("time"), offersTime { return .sseFixture("stream-function-call.sse") }
        return .sse(
            Fixtures.textStream(
                id: id, text: "echo: " + text.replacingOccurrences(of: "\n", with: " / "), previousResponseID: previous)
        )
    }
}
