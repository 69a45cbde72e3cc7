import Foundation
import GRDB
import ResponsesAPI

/// One row of `inspect list`.
public struct ExchangeSummary: Sendable, Hashable, FetchableRecord, Decodable {
    public var id: Int64
    public var startedAt: Date
    public var method: String
    public var url: String
    public var state: String
    public var status: Int?
    public var streamed: Bool
    public var model: String?
    public var responseId: String?
    public var requestId: String?
    public var ttftMs: Double?
    public var durationMs: Double?
    public var inputTokens: Int?
    public var outputTokens: Int?
    public var eventCount: Int
    public var preset: String?
    public var provider: String?
    /// `console` or `proxy`, and for the proxy's exchanges the client program.
    public var source: String
    public var client: String?
    public var session: String?
    /// The `openresponses eval` run the exchange was made for.
    public var evalRun: String?
    /// The Batch API batch the exchange is a result of.
    public var batchId: String?
    /// The proxy's user whose token sent it (`proxy --tokens-file`).
    public var user: String?
    public var error: String?
    public var costUsd: Double?
    public var attempt: Int

    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    static let columns = """
        id, started_at, method, url, state, status, streamed, model, response_id, request_id, ttft_ms,
        duration_ms, input_tokens, output_tokens, event_count, preset, provider, source, client, session, error, cost_usd,
        attempt, eval_run, batch_id, user
        """

    /// The error message stored with the exchange, if any.
    public var errorMessage: String? {
        guard let error, let json = try? JSONValue.parse(Array(error.utf8)) else { return nil }
        return json["message"]?.stringValue
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["id"] = .integer(Int(id))
        object["started_at"] = .string(InspectorStore.timestamp(startedAt))
        object["method"] = .string(method)
        object["url"] = .string(url)
        object["state"] = .string(state)
        object["status"] = status.map(JSONValue.integer) ?? .null
        object["streamed"] = .bool(streamed)
        object["model"] = model.map(JSONValue.string) ?? .null
        object["response_id"] = responseId.map(JSONValue.string) ?? .null
        object["request_id"] = requestId.map(JSONValue.string) ?? .null
        object["ttft_ms"] = ttftMs.map(JSONValue.number) ?? .null
        object["duration_ms"] = durationMs.map(JSONValue.number) ?? .null
        object["input_tokens"] = inputTokens.map(JSONValue.integer) ?? .null
        object["output_tokens"] = outputTokens.map(JSONValue.integer) ?? .null
        object["event_count"] = .integer(eventCount)
        object["preset"] = preset.map(JSONValue.string) ?? .null
        object["provider"] = provider.map(JSONValue.string) ?? .null
        object["source"] = .string(source)
        object["client"] = client.map(JSONValue.string) ?? .null
        object["session"] = session.map(JSONValue.string) ?? .null
        object["eval_run"] = evalRun.map(JSONValue.string) ?? .null
        object["batch_id"] = batchId.map(JSONValue.string) ?? .null
        object["user"] = user.map(JSONValue.string) ?? .null
        object["error"] = error.flatMap { try? JSONValue.parse(Array($0.utf8)) } ?? .null
        object["cost_usd"] = costUsd.map(JSONValue.number) ?? .null
        object["attempt"] = .integer(attempt)
        return .object(object)
    }
}
