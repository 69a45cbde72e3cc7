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

    mutating func collect(_ event: RecordedEvents.Entry) {
        guard let text = event.text else { return }
        if event.isOutputText {
            if output.utf8.count < Self.limit { output += text }
        } else if events.utf8.count < Self.limit {
            events += text
        }
    }

    /// The body of an answer that is not a stream: a response's output text, or an error's message.
    mutating func collect(body: [UInt8]) {
        guard let json = try? JSONValue.parse(body) else { return }
        if json["object"]?.stringValue == "response" {
            let response = Response(json: json)
            output += response.outputText
            for item in response.output {
                if case .reasoning(let reasoning) = item { events += reasoning.summary.joined(separator: "\n") }
                if case .functionCall(let call) = item { events += call.arguments }
            }
        } else if let message = json["error"]?["message"]?.stringValue {
            events += message + "\n"
        }
    }

    /// The text of a create-response body's `input` (a string, or the text parts of its messages) and
    /// its `instructions`.
    static func inputText(ofRequest json: JSONValue) -> String {
        var parts: [String] = []
        if let instructions = json["instructions"]?.stringValue { parts.append(instructions) }
        func texts(of value: JSONValue) {
            switch value {
            case .string(let text): parts.append(text)
            case .array(let values): values.forEach(texts(of:))
            case .object:
                if let text = value["text"]?.stringValue { parts.append(text) }
                if let content = value["content"] { texts(of: content) }
                if let output = value["output"]?.stringValue { parts.append(output) }
            default: break
            }
        }
        if let input = json["input"] { texts(of: input) }
        return parts.joined(separator: "\n")
    }
}
