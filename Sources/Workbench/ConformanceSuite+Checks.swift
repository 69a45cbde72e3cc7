import Foundation
import ResponsesAPI

/// The checks themselves. The prompts say what a model should do; `CALL_TOOL` in them is what the peer's
/// echo model (tests, Docs/testing.md) takes as its cue to call the tool it is offered.
extension ConformanceSuite {
    func perform(_ check: ConformanceCheck) async throws -> Outcome {
        switch check {
        case .create: try await create()
        case .stream: try await stream()
        case .chain: try await chain()
        case .functionCall: try await functionCall()
        case .jsonSchema: try await jsonSchema()
        case .background: try await background()
        case .inputTokens: try await inputTokens()
        case .fileSearch: try await fileSearch()
        case .reasoningSummary: try await reasoningSummary()
        }
    }

    func request(_ input: JSONValue) -> CreateResponseRequest {
        var request = CreateResponseRequest(model: model, input: input)
        request.body["store"] = true
        return request
    }

    func create() async throws -> Outcome {
        let response = try await client.create(request("Say hello in one word."), context: context)
        if let problem = StreamRules.completedResponseProblem(response.json) { return .failed(problem) }
        return response.outputText.isEmpty ? .failed("the response has no output text") : .passed
    }

    func stream() async throws -> Outcome {
        let events = try await collect(request("Say hello in one word."))
        if let difference = StreamRules().firstDifference(events) { return .failed(difference.description) }
        return .passed
    }

    func chain() async throws -> Outcome {
        let first = try await client.create(
            request(.string("Remember the code word \(Self.marker). Reply with OK.")), context: context)
        var second = request("What was the code word? Reply with the code word only.")
        second.body["previous_response_id"] = .string(first.id)
        let answer: Response
        do {
            answer = try await client.create(second, context: context)
        } catch {
            return Outcome(
                verdict: .failed(
                    "chain not kept: the turn with previous_response_id was refused (\(Self.describe(error)))"),
                keepsChains: false)
        }
        if answer.outputText.contains(Self.marker) { return Outcome(verdict: .passed, keepsChains: true) }
        // The server's own record of what the second turn was given, where it has one.
        if let items = try? await client.inputItems(responseID: answer.id, context: context).data {
            if items.contains(where: { String(decoding: $0.serialized(), as: UTF8.self).contains(Self.marker) }) {
                return Outcome(verdict: .passed, keepsChains: true)
            }
            return Outcome(
                verdict: .failed("chain not kept: the second turn's input items do not hold the first turn"),
                keepsChains: false)
        }
        return Outcome(
            verdict: .failed("chain not kept: the second answer did not know the first turn"), keepsChains: false)
    }

    static let lookupTool: JSONValue = [
        "type": "function", "name": "lookup", "description": "Looks a word up in the dictionary.",
        "parameters": [
            "type": "object", "properties": ["query": ["type": "string"]], "required": ["query"],
        ],
    ]

    func functionCall() async throws -> Outcome {
        let question: JSONValue = [
            "role": "user",
            "content": "CALL_TOOL Use the lookup tool to look up the word harbour, then say what it means.",
        ]
        var first = request(.array([question]))
        first.body["tools"] = [Self.lookupTool]
        let events = try await collect(first)
        if let difference = StreamRules().firstDifference(events) { return .failed(difference.description) }
        let output = events.last(where: \.isTerminal)?.response?.json["output"]?.arrayValue ?? []
        guard let call = output.first(where: { $0["type"]?.stringValue == "function_call" }),
            let callID = call["call_id"]?.stringValue, let name = call["name"]?.stringValue
        else { return .failed("no function call in the answer") }
        let callItem: JSONValue = [
            "type": "function_call", "call_id": .string(callID), "name": .string(name),
            "arguments": call["arguments"] ?? "{}",
        ]
        let result: JSONValue = [
            "type": "function_call_output", "call_id": .string(callID),
            "output": #"{"meaning":"a sheltered port where ships stay"}"#,
        ]
        var second = request(.array([question, callItem, result]))
        second.body["tools"] = [Self.lookupTool]
        let answer = try await client.create(second, context: context)
        if answer.output.contains(where: { $0.type == "function_call" }) {
            return .failed("the function_call_output was answered with another call, not with text")
        }
        return answer.outputText.isEmpty ? .failed("no text after the function_call_output") : .passed
    }

    static let capitalSchema: JSONValue = [
        "type": "object", "properties": ["city": ["type": "string"]], "required": ["city"],
        "additionalProperties": false,
    ]

    func jsonSchema() async throws -> Outcome {
        var asked = request("What is the capital of France? Answer as a JSON object with the field city.")
        asked.body["text"] = [
            "format": ["type": "json_schema", "name": "capital", "schema": Self.capitalSchema, "strict": true]
        ]
        let text = try await client.create(asked, context: context).outputText
        guard let value = try? JSONValue.parse(text) else {
            return .failed("the output is not JSON: \(Self.quote(String(text.prefix(60))))")
        }
        if let violation = JSONSchemaValidator(schema: Self.capitalSchema).violations(of: value).first {
            return .failed("the output breaks the schema: \(Self.quote("\(violation)"))")
        }
        return .passed
    }

    func background() async throws -> Outcome {
        var asked = request("Say hello in one word.")
        asked.body["background"] = true
        var response = try await client.create(asked, context: context)
        guard !response.id.isEmpty else { return .failed("the background response has no id") }
        var polls = 0
        repeat {
            if polls > 0 { try await Task.sleep(for: .milliseconds(250)) }
            response = try await client.retrieve(id: response.id, context: context)
            polls += 1
        } while response.status == .queued || response.status == .inProgress
        guard response.status == .completed else {
            return .failed(
                "GET /responses/{id} ended with status \(Self.quote(response.json["status"]?.stringValue ?? "none"))")
        }
        return .passed
    }

    func inputTokens() async throws -> Outcome {
        let count = try await client.countInputTokens(request("Say hello in one word."), context: context)
        return count > 0 ? .passed : .failed("`input_tokens` is \(count)")
    }

    func fileSearch() async throws -> Outcome {
        guard let stores = try? await client.listVectorStores(context: context).data,
            let store = stores.compactMap({ $0["id"]?.stringValue }).first
        else { return Outcome(verdict: .skipped("no vector store")) }
        var asked = request("CALL_TOOL Search the files for harbour and answer from them.")
        asked.body["tools"] = [["type": "file_search", "vector_store_ids": [.string(store)]]]
        let response = try await client.create(asked, context: context)
        guard response.output.contains(where: { $0.type == "file_search_call" }) else {
            return .failed("no `file_search_call` in the output")
        }
        return .passed
    }

    func reasoningSummary() async throws -> Outcome {
        var asked = request("Think it over: which is larger, 9.11 or 9.9?")
        asked.body["reasoning"] = ["summary": "auto"]
        let events = try await collect(asked)
        if let difference = StreamRules().firstDifference(events) { return .failed(difference.description) }
        let streamed = events.contains { $0.type == "response.reasoning_summary_text.delta" }
        let summary = events.last(where: \.isTerminal)?.response?.output.contains { item in
            if case .reasoning(let reasoning) = item { return !reasoning.summary.isEmpty }
            return false
        }
        return streamed || summary == true ? .passed : .failed("no reasoning summary in the answer")
    }
}

/// A stream read whole, within the suite's bounds.
extension ConformanceSuite {
    /// The events of `request` streamed, up to the terminal event. A stream cut short or ended by an error
    /// event is returned as far as it went (the rules name what is missing); more than `maximumEvents`
    /// events or `maximumStreamBytes` bytes ends the check.
    func collect(_ request: CreateResponseRequest) async throws -> [ResponseStreamEvent] {
        var events: [ResponseStreamEvent] = []
        var bytes = 0
        do {
            for try await event in client.stream(request, context: context) {
                events.append(event)
                bytes += event.data.count
                if events.count > maximumEvents || bytes > maximumStreamBytes {
                    throw CheckFailure(
                        difference: "the stream went past \(maximumEvents) events or \(maximumStreamBytes >> 20) MB")
                }
            }
        } catch let error as ResponsesAPIError where error.code == .truncatedStream || error.code == .streamError {
            if events.isEmpty { throw error }
        }
        return events
    }
}
