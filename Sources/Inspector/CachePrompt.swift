import ResponsesAPI

/// A `/responses` request as OpenAI's prompt cache sees it: the prefix is made of the tools, then the
/// instructions, then the input items (a chained request's earlier turns come before its own input, kept by
/// the server). A cache hit needs the same model, the same `prompt_cache_key` (it routes the request), and a
/// prefix of at least 1,024 tokens that is byte for byte the same as an earlier request's.
public struct CachePrompt: Sendable, Hashable {
    public var model: String?
    public var cacheKey: String?
    public var previousResponseID: String?
    public var tools: [JSONValue]
    public var instructions: String
    /// The request's own input items; a string input is one user message.
    public var items: [JSONValue]
    /// The size of the request body: a rough measure of the prompt where the server's count is not known.
    public var byteCount: Int

    public init(
        model: String? = nil, cacheKey: String? = nil, previousResponseID: String? = nil, tools: [JSONValue] = [],
        instructions: String = "", items: [JSONValue] = [], byteCount: Int = 0
    ) {
        self.model = model
        self.cacheKey = cacheKey
        self.previousResponseID = previousResponseID
        self.tools = tools
        self.instructions = instructions
        self.items = items
        self.byteCount = byteCount
    }

    /// The prompt of a request body; nil when the body is not a JSON object (a multipart upload, a GET).
    public init?(body: [UInt8]) {
        guard !body.isEmpty, let json = try? JSONValue.parse(body), case .object = json else { return nil }
        self.init(
            model: json["model"]?.stringValue, cacheKey: json["prompt_cache_key"]?.stringValue,
            previousResponseID: json["previous_response_id"]?.stringValue,
            tools: json["tools"]?.arrayValue ?? [], instructions: json["instructions"]?.stringValue ?? "",
            items: Self.items(of: json["input"]), byteCount: body.count)
    }

    static func items(of input: JSONValue?) -> [JSONValue] {
        switch input {
        case .string(let text): [["role": "user", "content": .string(text)]]
        case .array(let items): items
        default: []
        }
    }

    /// What an item says, for finding where two items part: a message's texts one after another, else nil.
    static func text(of item: JSONValue) -> String? {
        if let content = item["content"] {
            if let text = content.stringValue { return text }
            if let parts = content.arrayValue {
                let texts = parts.compactMap { $0["text"]?.stringValue }
                return texts.count == parts.count ? texts.joined(separator: "\n") : nil
            }
        }
        return item["output"]?.stringValue ?? item["arguments"]?.stringValue
    }

    /// What an item is, in a few words: `user message`, `function_call_output`, `function_call get_weather`.
    static func kind(of item: JSONValue) -> String {
        if let role = item["role"]?.stringValue { return "\(role) message" }
        let type = item["type"]?.stringValue ?? "item"
        if let name = item["name"]?.stringValue { return "\(type) \(name)" }
        return type
    }

    /// A tool's name for messages: its function name, else its type (`file_search`, `web_search`).
    static func name(ofTool tool: JSONValue) -> String {
        tool["name"]?.stringValue ?? tool["server_label"]?.stringValue ?? tool["type"]?.stringValue ?? "tool"
    }
}
