/// One event of a streamed response, decoded from the JSON `data` of a server-sent event.
///
/// Dispatch is on the JSON `type` (falling back to the SSE `event:` name for data-only or odd
/// streams). Events the console reads are typed in `kind`; every event, known or not, keeps its
/// whole payload in `json`, so nothing unknown is ever fatal.
public struct ResponseStreamEvent: Sendable, Hashable {
    public var type: String
    public var sequenceNumber: Int?
    public var kind: Kind
    public var json: JSONValue

    public enum Kind: Sendable, Hashable {
        /// `response.created`, `response.queued`, `response.in_progress`: a snapshot of the response so far.
        case responseUpdated(Response)
        /// `response.completed`, `response.incomplete`, `response.failed`: the final response.
        case responseFinished(Response)
        case outputItemAdded(outputIndex: Int, item: OutputItem)
        case outputItemDone(outputIndex: Int, item: OutputItem)
        case outputTextDelta(TextDelta)
        case outputTextDone(itemID: String, outputIndex: Int, contentIndex: Int, text: String)
        case refusalDelta(TextDelta)
        case reasoningSummaryTextDelta(TextDelta)
        case reasoningTextDelta(TextDelta)
        case functionCallArgumentsDelta(TextDelta)
        case functionCallArgumentsDone(itemID: String, outputIndex: Int, name: String?, arguments: String)
        /// An `error` event, nested (`{"error":{...}}`, as OpenAI sends it) or flat (as the spec writes it).
        case error(StreamErrorPayload)
        /// Any other event, including types this client does not know; read `type` and `json`.
        case other
        /// `data: [DONE]`, sent by some compatible servers after the terminal event.
        case done
    }

    /// A text delta: `delta` for the item at `outputIndex`; `partIndex` is `content_index` or
    /// `summary_index`, whichever the event carries.
    public struct TextDelta: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var partIndex: Int
        public var delta: String
    }

    public init(type: String, sequenceNumber: Int?, kind: Kind, json: JSONValue) {
        self.type = type
        self.sequenceNumber = sequenceNumber
        self.kind = kind
        self.json = json
    }

    /// Decodes an event. Throws `ResponsesAPIError` (code `.decoding`) only when the data is not JSON at all.
    public init(_ event: ServerSentEvent) throws(ResponsesAPIError) {
        if event.isDoneMarker {
            self.init(type: "[DONE]", sequenceNumber: nil, kind: .done, json: .null)
            return
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(event.data)
        } catch {
            throw ResponsesAPIError(
                code: .decoding,
                message: "event \(event.event.map { "'\($0)' " } ?? "")has data that is not JSON",
                underlying: error)
        }
        self.init(json: json, eventName: event.event)
    }

    public init(json: JSONValue, eventName: String? = nil) {
        let type = json["type"]?.stringValue ?? eventName ?? ""
        self.init(type: type, sequenceNumber: json["sequence_number"]?.intValue,
                  kind: Self.kind(of: type, json: json), json: json)
    }

    /// True for the three events that end a response.
    public var isTerminal: Bool {
        if case .responseFinished = kind { return true }
        return false
    }

    private static func kind(of type: String, json: JSONValue) -> Kind {
        func delta() -> TextDelta {
            TextDelta(
                itemID: json["item_id"]?.stringValue ?? "",
                outputIndex: json["output_index"]?.intValue ?? 0,
                partIndex: json["content_index"]?.intValue ?? json["summary_index"]?.intValue ?? 0,
                delta: json["delta"]?.stringValue ?? "")
        }
        switch type {
        case "response.created", "response.queued", "response.in_progress":
            return .responseUpdated(Response(json: json["response"] ?? .null))
        case "response.completed", "response.incomplete", "response.failed":
            return .responseFinished(Response(json: json["response"] ?? .null))
        case "response.output_item.added":
            return .outputItemAdded(
                outputIndex: json["output_index"]?.intValue ?? 0, item: OutputItem(json: json["item"] ?? .null))
        case "response.output_item.done":
            return .outputItemDone(
                outputIndex: json["output_index"]?.intValue ?? 0, item: OutputItem(json: json["item"] ?? .null))
        case "response.output_text.delta":
            return .outputTextDelta(delta())
        case "response.output_text.done":
            return .outputTextDone(
                itemID: json["item_id"]?.stringValue ?? "", outputIndex: json["output_index"]?.intValue ?? 0,
                contentIndex: json["content_index"]?.intValue ?? 0, text: json["text"]?.stringValue ?? "")
        case "response.refusal.delta":
            return .refusalDelta(delta())
        case "response.reasoning_summary_text.delta":
            return .reasoningSummaryTextDelta(delta())
        case "response.reasoning_text.delta":
            return .reasoningTextDelta(delta())
        case "response.function_call_arguments.delta":
            return .functionCallArgumentsDelta(delta())
        case "response.function_call_arguments.done":
            return .functionCallArgumentsDone(
                itemID: json["item_id"]?.stringValue ?? "", outputIndex: json["output_index"]?.intValue ?? 0,
                name: json["name"]?.stringValue, arguments: json["arguments"]?.stringValue ?? "")
        case "error":
            return .error(StreamErrorPayload(json: json))
        default:
            return .other
        }
    }
}

/// The payload of an `error` event, read from either shape.
public struct StreamErrorPayload: Sendable, Hashable {
    public var type: String?
    public var code: String?
    public var message: String
    public var param: String?

    public init(type: String? = nil, code: String? = nil, message: String, param: String? = nil) {
        self.type = type
        self.code = code
        self.message = message
        self.param = param
    }

    public init(json: JSONValue) {
        let body = json["error"]?.objectValue != nil ? json["error"]! : json
        self.init(
            type: body["type"]?.stringValue.flatMap { $0 == "error" ? nil : $0 },
            code: body["code"]?.stringValue,
            message: body["message"]?.stringValue ?? "unknown error",
            param: body["param"]?.stringValue)
    }
}
