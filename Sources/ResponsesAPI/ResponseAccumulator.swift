/// Builds a `Response` from stream events alone: the latest lifecycle snapshot, each output item as it was
/// added and finished, and, for items still in progress, their text, refusals, summaries, reasoning text
/// and tool-call arguments rebuilt from deltas. After an `output_item.done` for every item its `output`
/// equals the terminal event's; before that (a cancelled or broken stream) it is the partial output.
public struct ResponseAccumulator: Sendable {
    private var snapshot: JSONObject = JSONObject()
    private var items: [Int: JSONValue] = [:]
    private var finished: Set<Int> = []
    /// Streamed text per (output index, part kind, part index).
    private var texts: [PartKey: String] = [:]
    public private(set) var final: Response?

    struct PartKey: Hashable, Sendable {
        var outputIndex: Int
        var field: Field
        var index: Int
    }

    enum Field: Hashable, Sendable {
        case content, refusal, summary, reasoning, arguments, input, code
    }

    public init() {}

    public mutating func apply(_ event: ResponseStreamEvent) {
        switch event.kind {
        case .responseCreated(let response), .responseQueued(let response), .responseInProgress(let response):
            if let object = response.json.objectValue { snapshot = object }
        case .responseCompleted(let response), .responseIncomplete(let response), .responseFailed(let response):
            if let object = response.json.objectValue { snapshot = object }
            final = response
        case .outputItemAdded(let added):
            items[added.outputIndex] = added.item.json
        case .outputItemDone(let done):
            items[done.outputIndex] = done.item.json
            finished.insert(done.outputIndex)
        case .outputTextDelta(let delta): append(delta, .content)
        case .refusalDelta(let delta): append(delta, .refusal)
        case .reasoningSummaryTextDelta(let delta): append(delta, .summary)
        case .reasoningTextDelta(let delta): append(delta, .reasoning)
        case .functionCallArgumentsDelta(let delta), .mcpCallArgumentsDelta(let delta):
            append(delta, .arguments, index: 0)
        case .customToolCallInputDelta(let delta): append(delta, .input, index: 0)
        case .codeInterpreterCallCodeDelta(let delta): append(delta, .code, index: 0)
        case .outputTextDone(let done): set(done, .content)
        case .refusalDone(let done): set(done, .refusal)
        case .reasoningSummaryTextDone(let done): set(done, .summary)
        case .reasoningTextDone(let done): set(done, .reasoning)
        case .functionCallArgumentsDone(let done), .mcpCallArgumentsDone(let done): set(done, .arguments, index: 0)
        case .customToolCallInputDone(let done): set(done, .input, index: 0)
        case .codeInterpreterCallCodeDone(let done): set(done, .code, index: 0)
        default:
            break
        }
    }

    private mutating func append(_ delta: ResponseStreamEvent.TextDelta, _ field: Field, index: Int? = nil) {
        texts[PartKey(outputIndex: delta.outputIndex, field: field, index: index ?? delta.partIndex), default: ""] +=
            delta.delta
    }

    private mutating func set(_ done: ResponseStreamEvent.TextDone, _ field: Field, index: Int? = nil) {
        texts[PartKey(outputIndex: done.outputIndex, field: field, index: index ?? done.partIndex)] = done.text
    }

    /// The output text streamed so far, in output order (what was shown, for a partial answer).
    public var outputText: String {
        texts.keys.filter { $0.field == .content }.sorted { ($0.outputIndex, $0.index) < ($1.outputIndex, $1.index) }
            .map { texts[$0]! }.joined()
    }

    /// The response as the events describe it so far: the terminal event's own when one arrived, else the
    /// latest snapshot with the output rebuilt.
    public var response: Response {
        if let final { return final }
        return rebuilt
    }

    /// The response rebuilt from the snapshot, items and deltas, ignoring the terminal event's body.
    public var rebuilt: Response {
        var object = snapshot
        object["output"] = .array(
            items.keys.sorted().map { index in
                finished.contains(index) ? items[index]! : inProgress(items[index]!, at: index)
            })
        return Response(json: .object(object))
    }

    /// An item not finished yet, with what its deltas carried filled in.
    private func inProgress(_ item: JSONValue, at index: Int) -> JSONValue {
        guard case .object(var object) = item else { return item }
        func parts(_ field: Field) -> [(Int, String)] {
            texts.filter { $0.key.outputIndex == index && $0.key.field == field }.map { ($0.key.index, $0.value) }
                .sorted { $0.0 < $1.0 }
        }
        switch object["type"]?.stringValue {
        case "message":
            var content = object["content"]?.arrayValue ?? []
            for (partIndex, text) in parts(.content) {
                let part: JSONValue = ["type": "output_text", "text": .string(text), "annotations": []]
                if partIndex < content.count {
                    content[partIndex] = Self.replacing(content[partIndex], "text", text)
                } else {
                    content.append(part)
                }
            }
            for (partIndex, text) in parts(.refusal) {
                let part: JSONValue = ["type": "refusal", "refusal": .string(text)]
                if partIndex < content.count {
                    content[partIndex] = Self.replacing(content[partIndex], "refusal", text)
                } else {
                    content.append(part)
                }
            }
            object["content"] = .array(content)
        case "reasoning":
            let summary = parts(.summary)
            if !summary.isEmpty {
                object["summary"] = .array(summary.map { ["type": "summary_text", "text": .string($0.1)] })
            }
            let reasoning = parts(.reasoning)
            if !reasoning.isEmpty {
                object["content"] = .array(reasoning.map { ["type": "reasoning_text", "text": .string($0.1)] })
            }
        case "function_call", "mcp_call":
            if let text = parts(.arguments).first?.1 { object["arguments"] = .string(text) }
        case "custom_tool_call":
            if let text = parts(.input).first?.1 { object["input"] = .string(text) }
        case "code_interpreter_call":
            if let text = parts(.code).first?.1 { object["code"] = .string(text) }
        default:
            break
        }
        return .object(object)
    }

    private static func replacing(_ part: JSONValue, _ key: String, _ text: String) -> JSONValue {
        guard case .object(var object) = part else { return part }
        object[key] = .string(text)
        return .object(object)
    }
}
