import Foundation
import ResponsesAPI

/// Embeddings from a server's `POST /embeddings` (OpenAI, Ollama, vLLM, LiteLLM, llama-stack), through
/// the console's client: each request recorded in the inspector and retried by the client's policy.
/// Texts go in batches of at most 128 inputs and about 200,000 characters, under OpenAI's limits (2,048
/// inputs, 300,000 tokens a request).
public struct ProviderEmbedder: Embedder {
    public let client: ResponsesClient
    public let model: String
    public let dimensions: Int?
    /// The named provider `client` talks to, when the embedder names one (part of the identifier).
    public var server: String?
    public var context: ExchangeContext

    public static let batchInputs = 128
    public static let batchCharacters = 200_000

    public var identifier: String {
        EmbedderSpec.provider(model: model, dimensions: dimensions, server: server).description
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        for batch in Self.batches(texts) {
            let answer = try await client.embeddings(
                model: model, input: batch, dimensions: dimensions, context: context)
            vectors.append(contentsOf: answer)
        }
        return vectors
    }

    static func batches(_ texts: [String]) -> [[String]] {
        var batches: [[String]] = []
        var current: [String] = []
        var characters = 0
        for text in texts {
            if !current.isEmpty, current.count == batchInputs || characters + text.count > batchCharacters {
                batches.append(current)
                current = []
                characters = 0
            }
            current.append(text)
            characters += text.count
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
