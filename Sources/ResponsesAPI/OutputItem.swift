/// One item of a response's `output`. Types the console renders specially are typed; every other item
/// (including types that do not exist yet) is kept whole in `.other`.
public enum OutputItem: Sendable, Hashable {
    case message(Message)
    case reasoning(Reasoning)
    case functionCall(FunctionCall)
    case other(type: String, json: JSONValue)

    public init(json: JSONValue) {
        switch json["type"]?.stringValue {
        case "message": self = .message(Message(json: json))
        case "reasoning": self = .reasoning(Reasoning(json: json))
        case "function_call": self = .functionCall(FunctionCall(json: json))
        case let type: self = .other(type: type ?? "", json: json)
        }
    }

    public var json: JSONValue {
        switch self {
        case .message(let item): item.json
        case .reasoning(let item): item.json
        case .functionCall(let item): item.json
        case .other(_, let json): json
        }
    }

    public var type: String { json["type"]?.stringValue ?? "" }
    public var id: String? { json["id"]?.stringValue }

    /// An assistant message: `content` holds `output_text` and `refusal` parts.
    public struct Message: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var role: String? { json["role"]?.stringValue }
        public var content: [ContentPart] { (json["content"]?.arrayValue ?? []).map(ContentPart.init(json:)) }
        public var text: String {
            content.reduce(into: "") { text, part in
                if case .outputText(let value, _) = part { text += value }
            }
        }
    }

    /// A reasoning item: summary parts (and raw reasoning text from some compatible servers).
    public struct Reasoning: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var summary: [String] {
            (json["summary"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
        }
        public var encryptedContent: String? { json["encrypted_content"]?.stringValue }
    }

    /// A call of a function tool the request declared.
    public struct FunctionCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var name: String { json["name"]?.stringValue ?? "" }
        public var callID: String { json["call_id"]?.stringValue ?? "" }
        public var arguments: String { json["arguments"]?.stringValue ?? "" }
    }
}

/// A content part of a message.
public enum ContentPart: Sendable, Hashable {
    case outputText(String, annotations: [JSONValue])
    case refusal(String)
    case other(type: String, json: JSONValue)

    public init(json: JSONValue) {
        switch json["type"]?.stringValue {
        case "output_text":
            self = .outputText(json["text"]?.stringValue ?? "", annotations: json["annotations"]?.arrayValue ?? [])
        case "refusal":
            self = .refusal(json["refusal"]?.stringValue ?? "")
        case let type:
            self = .other(type: type ?? "", json: json)
        }
    }
}
