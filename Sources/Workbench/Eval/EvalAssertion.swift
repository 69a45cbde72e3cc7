import Foundation
import ResponsesAPI

/// One thing a case's answer must meet (each a one-key map under `expect:`).
public enum EvalAssertion: Sendable, Hashable {
    case contains(String)
    case notContains(String)
    /// A regular expression (ICU syntax, as `NSRegularExpression` reads it) found somewhere in the answer.
    case regex(String)
    /// The whole answer, leading and trailing whitespace aside.
    case equals(String)
    /// The answer is JSON valid against the schema (inline, or read from a file beside the suite).
    case jsonSchema(JSONValue)
    /// The answer's MiniLM cosine with `text` is at least `threshold` (0...1).
    case similar(text: String, threshold: Double)
    case maxLatencyMs(Double)
    /// US dollars, from the price table and the response's usage.
    case maxCost(Double)
    /// Output tokens, from the response's usage.
    case maxTokens(Int)
    /// A library answer's citations include each document (and page, when given).
    case cites([EvalCitation])
    /// A model grades the answer against a rubric: its score (0...1) is at least the threshold.
    case judge(EvalJudgeSpec)

    /// The names written in a suite, in the order the docs list them.
    public static let names = [
        "contains", "not_contains", "regex", "equals", "json_schema", "similar", "max_latency_ms", "max_cost",
        "max_tokens", "cites", "judge",
    ]

    /// The assertion as a suite writes it: `contains: "Ada"`.
    public var words: String {
        switch self {
        case .contains(let text): "contains: \(Self.quoted(text))"
        case .notContains(let text): "not_contains: \(Self.quoted(text))"
        case .regex(let pattern): "regex: \(Self.quoted(pattern))"
        case .equals(let text): "equals: \(Self.quoted(text))"
        case .jsonSchema: "json_schema"
        case .similar(let text, let threshold): "similar: \(Self.quoted(text)) >= \(threshold)"
        case .maxLatencyMs(let limit): "max_latency_ms: \(Self.number(limit))"
        case .maxCost(let limit): "max_cost: \(Self.number(limit))"
        case .maxTokens(let limit): "max_tokens: \(limit)"
        case .cites(let documents): "cites: " + documents.map(\.words).joined(separator: ", ")
        case .judge(let spec): "judge: \(Self.quoted(spec.rubric)) >= \(spec.threshold)"
        }
    }

    static func quoted(_ text: String) -> String {
        let short = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return "\"\(short)\""
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// What one call gave: the answer and its measures, as the console saw them.
public struct EvalObservation: Sendable, Hashable {
    public var answer: String
    public var latencyMs: Double
    /// Nil when the model has no price or the response no usage.
    public var cost: Double?
    public var outputTokens: Int?
    /// The call failed (HTTP, network, a failed response): every assertion fails with it.
    public var error: String?
    /// The passages a library answer cites (nil: not a library answer).
    public var citations: [EvalCitedSource]?
    /// The Batch API batch the call went through (`eval --batch`): no call's latency is known, so `latencyMs` is
    /// the batch's turnaround, never shown as a call's, and `max_latency_ms` is not checked.
    public var batch: String?

    public init(
        answer: String, latencyMs: Double, cost: Double? = nil, outputTokens: Int? = nil, error: String? = nil,
        citations: [EvalCitedSource]? = nil
    ) {
        self.answer = answer
        self.latencyMs = latencyMs
        self.cost = cost
        self.outputTokens = outputTokens
        self.error = error
        self.citations = citations
    }
}

/// An assertion that did not hold: which, and what was seen instead.
public struct EvalFailure: Sendable, Hashable, CustomStringConvertible {
    public var assertion: String
    public var seen: String

    public init(assertion: String, seen: String) {
        self.assertion = assertion
        self.seen = seen
    }

    public var description: String { "\(assertion): \(seen)" }
}
