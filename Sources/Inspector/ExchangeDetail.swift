import Foundation
import GRDB
import ResponsesAPI

/// Everything stored about one exchange: `inspect show`.
public struct ExchangeDetail: Sendable, Hashable {
    public var summary: ExchangeSummary
    public var requestHeaders: [(String, String)]
    public var requestBody: [UInt8]
    public var responseHeaders: [(String, String)]
    public var responseBody: [UInt8]?
    public var responseStatus: String?
    public var ttfbMs: Double?
    public var cachedTokens: Int?
    public var reasoningTokens: Int?
    public var totalTokens: Int?
    public var replayOf: Int64?
    public var events: [StoredEvent]

    public static func == (lhs: ExchangeDetail, rhs: ExchangeDetail) -> Bool { lhs.summary == rhs.summary }
    public func hash(into hasher: inout Hasher) { hasher.combine(summary) }

    /// Bytes shown as JSON when they parse, as a string otherwise.
    static func embed(_ bytes: [UInt8]?) -> JSONValue {
        guard let bytes, !bytes.isEmpty else { return .null }
        if let json = try? JSONValue.parse(bytes) { return json }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    static func headersJSON(_ headers: [(String, String)]) -> JSONValue {
        .array(headers.map { .array([.string($0.0), .string($0.1)]) })
    }

    /// The request body as JSON (`.null` when empty or not JSON).
    public var requestJSON: JSONValue { (try? JSONValue.parse(requestBody)) ?? .null }

    /// What the server answered, as JSON: the response of the terminal event of a stream; for a stream that
    /// stopped before it (cancelled, broken off), the response as its events built it so far (the partial
    /// answer, with the status of the last snapshot); else the body.
    public var responseJSON: JSONValue {
        if let last = events.last(where: { ResponseStreamEvent.terminalTypes.contains($0.type) }),
            let json = try? JSONValue.parse(last.data)
        {
            return json["response"] ?? .null
        }
        if !events.isEmpty {
            var accumulator = ResponseAccumulator()
            for event in events {
                if let json = try? JSONValue.parse(event.data) { accumulator.apply(ResponseStreamEvent(json: json)) }
            }
            let rebuilt = accumulator.rebuilt.json
            if rebuilt["id"] != nil || !(rebuilt["output"]?.arrayValue ?? []).isEmpty { return rebuilt }
        }
        guard let body = responseBody, !body.isEmpty else { return .null }
        return (try? JSONValue.parse(body)) ?? .string(String(decoding: body, as: UTF8.self))
    }

    public var json: JSONValue {
        guard case .object(var object) = summary.json else { return .null }
        object["ttfb_ms"] = ttfbMs.map(JSONValue.number) ?? .null
        object["response_status"] = responseStatus.map(JSONValue.string) ?? .null
        object["usage"] = .object([
            "input_tokens": summary.inputTokens.map(JSONValue.integer) ?? .null,
            "cached_tokens": cachedTokens.map(JSONValue.integer) ?? .null,
            "output_tokens": summary.outputTokens.map(JSONValue.integer) ?? .null,
            "reasoning_tokens": reasoningTokens.map(JSONValue.integer) ?? .null,
            "total_tokens": totalTokens.map(JSONValue.integer) ?? .null,
        ])
        object["replay_of"] = replayOf.map { .integer(Int($0)) } ?? .null
        object["eval_run"] = summary.evalRun.map(JSONValue.string) ?? .null
        object["request"] = .object([
            "headers": Self.headersJSON(requestHeaders),
            "body": Self.embed(requestBody),
        ])
        object["response"] = .object([
            "headers": Self.headersJSON(responseHeaders),
            "body": Self.embed(responseBody),
        ])
        object["events"] = .array(events.map(\.json))
        return .object(object)
    }
}

/// One stored server-sent event.
public struct StoredEvent: Sendable, Hashable {
    public var index: Int
    public var sequenceNumber: Int?
    public var offsetMs: Double
    public var type: String
    public var data: [UInt8]

    public init(index: Int, sequenceNumber: Int?, offsetMs: Double, type: String, data: [UInt8]) {
        self.index = index
        self.sequenceNumber = sequenceNumber
        self.offsetMs = offsetMs
        self.type = type
        self.data = data
    }

    public var json: JSONValue {
        .object([
            "index": .integer(index),
            "sequence_number": sequenceNumber.map(JSONValue.integer) ?? .null,
            "offset_ms": .number(offsetMs),
            "type": .string(type),
            "data": ExchangeDetail.embed(data),
        ])
    }
}
