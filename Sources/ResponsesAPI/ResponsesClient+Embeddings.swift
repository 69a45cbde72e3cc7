/// `POST /embeddings`: vectors for a batch of texts (OpenAI's API, and Ollama, vLLM, LiteLLM, llama-stack).
extension ResponsesClient {
    /// One vector per input, in the inputs' order (the answer's `index` orders them). `dimensions` asks a
    /// model that can shorten its vectors (text-embedding-3-*) for that many. Recorded and retried like
    /// every request.
    public func embeddings(
        model: String, input: [String], dimensions: Int? = nil, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [[Float]] {
        var body: JSONObject = [
            "model": .string(model), "input": .array(input.map(JSONValue.string)), "encoding_format": "float",
        ]
        if let dimensions { body["dimensions"] = .integer(dimensions) }
        let answer = try await json("POST", "/embeddings", body, context: context)
        guard let data = answer["data"]?.arrayValue else {
            throw ResponsesAPIError(code: .decoding, message: "the answer to POST /embeddings has no data array")
        }
        var vectors = [[Float]?](repeating: nil, count: input.count)
        for (position, item) in data.enumerated() {
            let index = item["index"]?.intValue ?? position
            guard vectors.indices.contains(index), let values = item["embedding"]?.arrayValue else {
                throw ResponsesAPIError(
                    code: .decoding, message: "POST /embeddings: data[\(position)] has no embedding for an input")
            }
            var vector: [Float] = []
            vector.reserveCapacity(values.count)
            for (place, value) in values.enumerated() {
                guard let number = value.doubleValue else {
                    throw ResponsesAPIError(
                        code: .decoding,
                        message: "POST /embeddings: data[\(position)].embedding[\(place)] is not a number")
                }
                vector.append(Float(number))
            }
            vectors[index] = vector
        }
        guard vectors.allSatisfy({ $0 != nil }) else {
            throw ResponsesAPIError(
                code: .decoding, message: "POST /embeddings answered \(data.count) vectors for \(input.count) inputs")
        }
        return vectors.map { $0! }
    }
}
