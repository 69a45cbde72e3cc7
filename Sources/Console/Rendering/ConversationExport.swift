import Foundation
import Inspector
import Library
import ResponsesAPI

/// A past conversation, rebuilt from the inspector's records of its session: each `POST /responses`
/// exchange is a turn (or a tool round of one), with the items sent and the response received. Written
/// as Markdown (turns, tool calls, citations as footnotes, usage per turn, model and preset) or as JSON
/// (the items exactly as sent and received).
struct ConversationExport {
    /// One request and what came back.
    struct Turn {
        var exchange: ExchangeSummary
        var request: JSONValue
        var response: JSONValue
        /// How many of its input items a `/compact` just before it made (the conversation so far, not new).
        var compacted = 0
    }

    var session: String
    var turns: [Turn]
    /// The MCP calls kept with the turns' responses, by call id.
    var toolCalls: [String: ToolCallEntry] = [:]

    /// The session's response exchanges, in order (other exchanges, such as retrievals, counts and
    /// deletions, are not turns).
    init(session: String, exchanges: [ExchangeDetail]) {
        self.session = session
        var turns: [Turn] = []
        var compacted = 0
        for detail in exchanges where detail.summary.method == "POST" {
            if detail.summary.url.hasSuffix("/responses/compact") {
                compacted = detail.responseJSON["output"]?.arrayValue?.count ?? 0
            } else if detail.summary.url.hasSuffix("/responses") {
                turns.append(
                    Turn(
                        exchange: detail.summary, request: detail.requestJSON, response: detail.responseJSON,
                        compacted: compacted))
                compacted = 0
            }
        }
        self.turns = turns
    }

    /// The items a request added to the conversation: all of its input when it chains (or is the first),
    /// else (a stateless request resends the history) those after the last item the model produced; after
    /// a `/compact`, those after the `compacted` items it starts with.
    static func newItems(_ request: JSONValue, first: Bool, compacted: Int = 0) -> [JSONValue] {
        guard let items = request["input"]?.arrayValue else {
            return request["input"]?.stringValue.map { [["type": "message", "role": "user", "content": .string($0)]] }
                ?? []
        }
        if compacted > 0 { return Array(items.dropFirst(compacted)) }
        if first || request["previous_response_id"]?.stringValue != nil || request["conversation"] != nil {
            return items
        }
        let produced = items.lastIndex { item in
            item["role"]?.stringValue == "assistant"
                || ["function_call", "reasoning", "web_search_call", "file_search_call"].contains(
                    item["type"]?.stringValue ?? "")
        }
        return produced.map { Array(items[($0 + 1)...]) } ?? items
    }

    /// The fragments (`ask -f`, `/fragment`) the user messages among `items` carry: `{"source", "sha256"}` each.
    static func fragments(in items: [JSONValue]) -> [JSONValue] {
        items.filter { $0["role"]?.stringValue == "user" }.flatMap { item in
            (item["content"]?.arrayValue ?? []).compactMap { part -> JSONValue? in
                guard part["type"]?.stringValue == "input_text", let text = part["text"]?.stringValue,
                    let block = Fragment.parseBlock(text)
                else { return nil }
                return ["source": .string(block.source), "sha256": .string(block.sha256)]
            }
        }
    }

    /// The text of a message item's content (a string, or its text parts; a fragment by its source and hash).
    static func text(ofMessage item: JSONValue) -> String {
        if let text = item["content"]?.stringValue { return text }
        return (item["content"]?.arrayValue ?? []).compactMap { part in
            switch part["type"]?.stringValue {
            case "input_text":
                part["text"]?.stringValue.map { text in
                    Fragment.parseBlock(text).map { "[fragment: \($0.source) · sha256 \($0.sha256.prefix(12))]" }
                        ?? text
                }
            case "output_text", "text": part["text"]?.stringValue
            case "input_image": "[image]"
            case "input_file": "[file: \(part["filename"]?.stringValue ?? part["file_id"]?.stringValue ?? "attached")]"
            default: nil
            }
        }.joined(separator: "\n")
    }

    // MARK: JSON

    /// `{"session", "turns": [{"exchange", "started_at", "model", "preset", "provider", "state", "usage",
    /// "cost_usd", "fragments", "request", "response"}]}`: the request and response bodies as recorded, and
    /// the fragments the request carried (`{"source", "sha256"}`).
    var json: JSONValue {
        .object([
            "session": .string(session),
            "turns": .array(
                turns.enumerated().map { index, turn in
                    .object([
                        "exchange": .integer(Int(turn.exchange.id)),
                        "started_at": .string(InspectorStore.timestamp(turn.exchange.startedAt)),
                        "model": turn.exchange.model.map(JSONValue.string) ?? .null,
                        "preset": turn.exchange.preset.map(JSONValue.string) ?? .null,
                        "provider": turn.exchange.provider.map(JSONValue.string) ?? .null,
                        "state": .string(turn.exchange.state),
                        "usage": .object([
                            "input_tokens": turn.exchange.inputTokens.map(JSONValue.integer) ?? .null,
                            "output_tokens": turn.exchange.outputTokens.map(JSONValue.integer) ?? .null,
                        ]),
                        "cost_usd": turn.exchange.costUsd.map(JSONValue.number) ?? .null,
                        "fragments": .array(
                            Self.fragments(
                                in: Self.newItems(turn.request, first: index == 0, compacted: turn.compacted))),
                        "request": turn.request,
                        "response": turn.response,
                        "tool_calls": .array(
                            toolCalls.values.filter { $0.responseID == turn.exchange.responseId }
                                .sorted { $0.recordedAt < $1.recordedAt }.map(\.json)),
                    ])
                }),
        ])
    }
}
