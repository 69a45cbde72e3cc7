import Foundation
import ResponsesAPI
import Synchronization

/// A small Responses server for `providers check --conformance`, as a loopback route: it keeps what it
/// answered (so `GET /responses/{id}`, its input items, chains and background responses work), calls the
/// offered function when the input says `CALL_TOOL` (as the peer's echo model does), answers a
/// `json_schema` request with JSON, a reasoning request with a summary, and a `file_search` request with a
/// search when it has a vector store. Its answers stream as OpenAI's do (`ConformanceServer+Frames`), except
/// where a flaw is asked for.
public final class ConformanceServer: Sendable {
    public enum Flaw: Sendable, Hashable {
        /// `previous_response_id` is taken and ignored, as LiteLLM does.
        case forgetsChains
        /// The seventh event of every stream has no `sequence_number`.
        case dropsASequenceNumber
        /// A `json_schema` request answered with an escape sequence, not JSON (which the difference quotes, and
        /// a terminal must never get).
        case hostileText
    }

    let flaws: Set<Flaw>
    let vectorStore: Bool
    let model: String
    /// Each response's id: its JSON and the input items it was given (its chain's first).
    let stored = Mutex<[String: (response: String, inputs: [JSONValue])]>([:])
    let counter = Mutex(0)

    public init(model: String = "conf-model", vectorStore: Bool = false, flaws: Set<Flaw> = []) {
        self.model = model
        self.vectorStore = vectorStore
        self.flaws = flaws
    }

    public var route: LoopbackServer.Route { { [self] request in self.answer(request) } }

    func answer(_ request: ReceivedRequest) -> Reply {
        let parts = request.path.split(separator: "/").map(String.init)
        let responseID = parts.count >= 3 && parts[1] == "responses" ? parts[2] : ""
        switch (request.method, request.path) {
        case ("GET", "/v1/models"):
            return .json(#"{"object":"list","data":[{"id":"\#(model)","object":"model","owned_by":"test"}]}"#)
        case ("GET", "/v1/vector_stores"):
            let store = #"{"id":"vs_conf","object":"vector_store","name":"conf","status":"completed"}"#
            return .json(#"{"object":"list","data":[\#(vectorStore ? store : "")],"has_more":false}"#)
        case ("POST", "/v1/responses/input_tokens"):
            return .json(#"{"object":"response.input_tokens","input_tokens":\#(max(1, request.body.count / 4))}"#)
        case ("POST", "/v1/responses"):
            return create(request)
        case ("GET", "/v1/responses/\(responseID)"):
            guard let kept = stored.withLock({ $0[responseID] }) else { return Self.notFound(responseID) }
            return .json(kept.response)
        case ("GET", "/v1/responses/\(responseID)/input_items"):
            guard let kept = stored.withLock({ $0[responseID] }) else { return Self.notFound(responseID) }
            let items = JSONValue.array(kept.inputs).serialized()
            return .json(#"{"object":"list","data":\#(String(decoding: items, as: UTF8.self)),"has_more":false}"#)
        default:
            return .json(
                #"{"error":{"message":"no route for \#(request.path)","type":"invalid_request_error"}}"#, status: 404)
        }
    }

    static func notFound(_ id: String) -> Reply {
        .json(
            #"{"error":{"message":"Response with id '\#(id)' not found.","type":"invalid_request_error","param":null,"code":null}}"#,
            status: 404)
    }

    func create(_ request: ReceivedRequest) -> Reply {
        guard let body = try? JSONValue.parse(request.body) else {
            return .json(#"{"error":{"message":"not JSON"}}"#, status: 400)
        }
        let number = counter.withLock { count in
            count += 1
            return count
        }
        let id = "resp_conf\(number)"
        var inputs = Self.items(body["input"])
        if !flaws.contains(.forgetsChains), let previous = body["previous_response_id"]?.stringValue {
            guard let kept = stored.withLock({ $0[previous] }) else { return Self.notFound(previous) }
            inputs = kept.inputs + inputs
        }
        let output = outputItems(id: id, body: body, inputs: inputs)
        let background = body["background"]?.boolValue == true
        let final = response(id: id, status: "completed", output: output, body: body)
        stored.withLock { $0[id] = (String(decoding: final.serialized(), as: UTF8.self), inputs) }
        if body["stream"]?.boolValue == true {
            return .sse(frames(id: id, output: output, body: body))
        }
        if background {
            return .json(
                String(decoding: response(id: id, status: "queued", output: [], body: body).serialized(), as: UTF8.self)
            )
        }
        return .json(String(decoding: final.serialized(), as: UTF8.self))
    }

    /// The input as items: a string is one user message.
    static func items(_ input: JSONValue?) -> [JSONValue] {
        if let text = input?.stringValue { return [["type": "message", "role": "user", "content": .string(text)]] }
        return input?.arrayValue ?? []
    }

    static func text(of item: JSONValue) -> String {
        if let text = item["content"]?.stringValue { return text }
        return (item["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(separator: " ")
    }

    /// What the model answers: a function call, a search, a reasoning summary, JSON, or an echo of the
    /// conversation's user turns (all of them, so a kept chain shows in the answer).
    func outputItems(id: String, body: JSONValue, inputs: [JSONValue]) -> [JSONValue] {
        let tools = body["tools"]?.arrayValue ?? []
        let last = inputs.last ?? .null
        let users = inputs.filter { $0["role"]?.stringValue == "user" }.map(Self.text(of:))
        func message(_ text: String) -> JSONValue {
            [
                "id": .string("msg_\(id)"), "type": "message", "status": "completed", "role": "assistant",
                "content": [["type": "output_text", "text": .string(text), "annotations": []]],
            ]
        }
        if last["type"]?.stringValue == "function_call_output" {
            return [message("tool result: " + (last["output"]?.stringValue ?? ""))]
        }
        if let function = tools.first(where: { $0["type"]?.stringValue == "function" }),
            users.last?.contains("CALL_TOOL") == true
        {
            return [
                [
                    "id": .string("fc_\(id)"), "type": "function_call", "status": "completed",
                    "call_id": .string("call_\(id)"), "name": function["name"] ?? "tool",
                    "arguments": #"{"query":"harbour"}"#,
                ]
            ]
        }
        var output: [JSONValue] = []
        if tools.contains(where: { $0["type"]?.stringValue == "file_search" }) {
            output.append([
                "id": .string("fs_\(id)"), "type": "file_search_call", "status": "completed", "queries": ["harbour"],
                "results": .null,
            ])
        }
        if body["reasoning"]?["summary"] != nil {
            output.append([
                "id": .string("rs_\(id)"), "type": "reasoning",
                "summary": [["type": "summary_text", "text": "Comparing the decimals."]],
            ])
        }
        if body["text"]?["format"]?["type"]?.stringValue == "json_schema" {
            return output + [
                message(flaws.contains(.hostileText) ? "\u{1B}]0;owned\u{07}not JSON" : #"{"city":"Paris"}"#)
            ]
        }
        return output + [message("echo: " + users.joined(separator: " | "))]
    }

    func response(id: String, status: String, output: [JSONValue], body: JSONValue) -> JSONValue {
        [
            "id": .string(id), "object": "response", "created_at": 1_795_270_000, "status": .string(status),
            "model": .string(model), "previous_response_id": body["previous_response_id"] ?? .null,
            "output": .array(output),
            "usage": status == "completed"
                ? ["input_tokens": 12, "output_tokens": 5, "total_tokens": 17] : .null,
        ]
    }
}
