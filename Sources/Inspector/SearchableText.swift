import ResponsesAPI

/// The texts of an exchange that search looks through: the user's input, the answer, and what else the
/// events carried (reasoning summaries, tool-call arguments and code, error messages). Collected by the
/// recording's writer task, off the streaming path.
/// Each text keeps its first `limit` bytes (1 MB): enough to find any answer by its words, while a
/// 50 MB answer costs the index no more than a long one (the events keep every byte).
struct SearchableText: Sendable {
    static let limit = 1 << 20
    var output = ""
    var events = ""

    /// Where an event's text goes: the rule for streamed events and whole bodies alike. The answer's text
    /// is `output`; refusals, reasoning, tool arguments, tool input, code and error messages are `events`.
    enum Destination { case output, events }

    /// The destination of the text a streamed event of `type` carries (`RecordedEvent.text`); nil for
    /// types that are not indexed.
    static func destination(ofEventType type: String) -> Destination? {
        switch type {
        case "response.output_text.delta": .output
        case "response.refusal.delta", "response.reasoning_summary_text.delta", "response.reasoning_text.delta",
            "response.function_call_arguments.delta", "response.custom_tool_call_input.delta",
            "response.mcp_call_arguments.delta", "response.code_interpreter_call_code.delta", "error":
            .events
        default: nil
        }
    }

    /// The texts of a read's events, each entry read where it is (a copy of an entry retains and releases
    /// its four references).
    mutating func collect(_ events: RecordedEvents) {
        events.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                guard let text = entries[index].text else { continue }
                let type = entries[index].type
                guard let destination = Self.destination(ofEventType: type) else { continue }
                add(type == "error" ? text + "\n" : text, to: destination)
            }
        }
    }

    mutating func add(_ text: String, to destination: Destination) {
        switch destination {
        case .output: if output.utf8.count < Self.limit { output += text }
        case .events: if events.utf8.count < Self.limit { events += text }
        }
    }

    /// The body of an answer that is not a stream: the same texts from the response's items (what the
    /// deltas of a stream would have carried), or an error's message.
    mutating func collect(body: [UInt8]) {
        guard let json = try? JSONValue.parse(body) else { return }
        if json["object"]?.stringValue == "response" {
            for item in Response(json: json).output {
                switch item {
                case .message(let message):
                    for part in message.content {
                        switch part {
                        case .outputText(let text): add(text.text, to: .output)
                        case .refusal(let refusal): add(refusal, to: .events)
                        default: break
                        }
                    }
                case .reasoning(let reasoning):
                    add((reasoning.summary + reasoning.reasoningText).joined(separator: "\n"), to: .events)
                case .functionCall(let call): add(call.arguments, to: .events)
                case .customToolCall(let call): add(call.input, to: .events)
                case .mcpCall(let call): add(call.arguments, to: .events)
                case .codeInterpreterCall(let call): add(call.code ?? "", to: .events)
                default: break
                }
            }
        } else if let message = json["error"]?["message"]?.stringValue {
            add(message + "\n", to: .events)
        }
    }

    /// The most of a request's input text kept for search (`input_text`): a 40 MB piped document is still
    /// found by its first mebibyte, and is not copied whole into the index (its exact bytes stay in
    /// `request_body`).
    static let inputTextLimit = 1 << 20

    /// The text of a create-response body's `input` (a string, or the text parts of its messages) and
    /// its `instructions`, at most `limit` bytes of it (cut at a scalar's start).
    static func inputText(ofRequest json: JSONValue, limit: Int = inputTextLimit) -> String {
        var result = ""
        func add(_ text: String) {
            let room = limit - result.utf8.count - (result.isEmpty ? 0 : 1)
            guard room > 0 else { return }
            if !result.isEmpty { result += "\n" }
            guard text.utf8.count > room else {
                result += text
                return
            }
            var end = text.utf8.index(text.utf8.startIndex, offsetBy: room)
            while end > text.utf8.startIndex, UTF8.isContinuation(text.utf8[end]) { end = text.utf8.index(before: end) }
            result += text[..<end]
        }
        if let instructions = json["instructions"]?.stringValue { add(instructions) }
        func texts(of value: JSONValue) {
            switch value {
            case .string(let text): add(text)
            case .array(let values): values.forEach(texts(of:))
            case .object:
                if let text = value["text"]?.stringValue { add(text) }
                if let content = value["content"] { texts(of: content) }
                if let output = value["output"]?.stringValue { add(output) }
            default: break
            }
        }
        if let input = json["input"] { texts(of: input) }
        return result
    }
}
