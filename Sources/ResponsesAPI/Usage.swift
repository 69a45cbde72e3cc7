/// Token usage of a response (`usage` on the final response object).
public struct Usage: Sendable, Hashable, Codable {
    public var inputTokens: Int?
    public var cachedInputTokens: Int?
    public var outputTokens: Int?
    public var reasoningTokens: Int?
    public var totalTokens: Int?

    public init(
        inputTokens: Int? = nil, cachedInputTokens: Int? = nil, outputTokens: Int? = nil,
        reasoningTokens: Int? = nil, totalTokens: Int? = nil
    ) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.reasoningTokens = reasoningTokens
        self.totalTokens = totalTokens
    }

    /// Reads OpenAI's shape (`input_tokens`, `input_tokens_details.cached_tokens`, ...); nil when `json` is not an object.
    public init?(json: JSONValue?) {
        guard let json, case .object = json else { return nil }
        self.init(
            inputTokens: json["input_tokens"]?.intValue,
            cachedInputTokens: json["input_tokens_details"]?["cached_tokens"]?.intValue,
            outputTokens: json["output_tokens"]?.intValue,
            reasoningTokens: json["output_tokens_details"]?["reasoning_tokens"]?.intValue,
            totalTokens: json["total_tokens"]?.intValue
        )
    }
}
