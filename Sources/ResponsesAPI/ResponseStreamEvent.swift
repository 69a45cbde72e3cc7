#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One event of a streamed response, decoded from the JSON `data` of a server-sent event.
///
/// Dispatch is on the JSON `type` (falling back to the SSE `event:` name for odd streams). Every one of
/// the 58 event types of the API has a typed case in `kind`; an event of any other type is `.unknown`.
/// Every event, known or not, keeps the exact bytes of its payload in `data` (and parses them whole, on
/// demand, in `json`), so nothing unknown is ever fatal and fields this client does not model are still
/// there to read. Decoding reads only the fields `kind` needs: log probabilities, padding and unknown
/// fields are skipped over, not built.
public struct ResponseStreamEvent: Sendable, Hashable {
    public var type: String
    /// Optional: early recordings (March 2025) have none.
    public var sequenceNumber: Int?
    public var kind: Kind
    /// The event's data exactly as it arrived (but see `omitsRepeatedText`; and with `RepeatedText.omitted`
    /// a `response.output_text.delta` keeps none: its consumer reads `kind`).
    public var data: [UInt8]
    /// True when a long text of this event that repeats what the deltas brought was left undecoded and
    /// reads as "" (`RepeatedText.omitted`): `data` holds the event without it too (the string empty), so
    /// nothing keeps the repeat's bytes; the recording, when there is one, keeps the exact bytes.
    public var omitsRepeatedText = false

    public init(type: String, sequenceNumber: Int?, kind: Kind, data: [UInt8]) {
        self.type = type
        self.sequenceNumber = sequenceNumber
        self.kind = kind
        self.data = data
    }

    /// The whole payload, every field included (parsed from `data` each time it is read).
    public var json: JSONValue { (try? JSONValue.parse(data)) ?? .null }

    /// Decodes an event. Throws `ResponsesAPIError` (code `.decoding`) only when the data is not JSON at all.
    public init(_ event: ServerSentEvent) throws(ResponsesAPIError) {
        try self.init(event, longStrings: nil)
    }

    /// Decodes an event of a stream whose long strings `longStrings` keeps, so the final events that repeat
    /// a message's whole text share one decoded copy of it.
    /// (`borrowing`: an initialiser takes its arguments owned, so passing the stream's event was a copy.)
    public init(_ event: borrowing ServerSentEvent, longStrings: LongStrings?) throws(ResponsesAPIError) {
        longStrings?.fastDelta = nil
        if event.isDoneMarker {
            self.init(type: "[DONE]", sequenceNumber: nil, kind: .done, data: event.data)
            return
        }
        let previousItemID = longStrings?.lastItemID ?? ""
        if let (sequenceNumber, delta, rawDelta) = event.data.withUnsafeBufferPointer({
            Self.fastOutputTextDelta($0, previousItemID: previousItemID)
        }) {
            longStrings?.fastDelta = .some(rawDelta)
            longStrings?.lastItemID = delta.itemID
            self.init(
                type: Self.outputTextDeltaType, sequenceNumber: sequenceNumber, kind: .outputTextDelta(delta),
                data: longStrings?.keepsDeltaBytes == false ? [] : event.data)
            return
        }
        try self.init(general: event, longStrings: longStrings)
    }

    static let outputTextDeltaType = "response.output_text.delta"

    /// Decodes any event with the general field parser (the fast path's reference).
    init(general event: borrowing ServerSentEvent, longStrings: LongStrings? = nil) throws(ResponsesAPIError) {
        var fields = EventFields()
        do {
            try event.data.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                try JSONParser.parseFields(
                    buffer, wanted: EventFields.key(named:), interned: EventFields.internedType,
                    longStrings: longStrings
                ) { key, value in
                    fields[key] = value
                }
            }
        } catch {
            // JSON that is not an object is an unknown event; bytes that are not JSON are an error.
            if (try? JSONValue.parse(event.data)) != nil {
                self.init(type: event.event ?? "", sequenceNumber: nil, kind: .unknown, data: event.data)
                return
            }
            throw ResponsesAPIError(
                code: .decoding,
                message: "event \(event.event.map { "'\($0)' " } ?? "")has data that is not JSON (\(error))",
                underlying: error)
        }
        let type = fields[.type]?.stringValue ?? event.event ?? ""
        let dropsBytes = longStrings?.keepsDeltaBytes == false && type == Self.outputTextDeltaType
        self.init(
            type: type, sequenceNumber: fields[.sequenceNumber]?.intValue, kind: Self.kind(of: type, fields: fields),
            data: dropsBytes ? [] : event.data)
    }

    /// An event built from a JSON value (its bytes are the value serialised).
    public init(json: JSONValue, eventName: String? = nil) {
        let type = json["type"]?.stringValue ?? eventName ?? ""
        self.init(
            type: type, sequenceNumber: json["sequence_number"]?.intValue,
            kind: Self.kind(of: type, fields: EventFields(json: json)), data: json.serialized())
    }

    /// The types of the three events that end a response.
    public static let terminalTypes: Set<String> = ["response.completed", "response.incomplete", "response.failed"]

    /// True for the three events that end a response.
    public var isTerminal: Bool {
        switch kind {
        case .responseCompleted, .responseIncomplete, .responseFailed: true
        default: false
        }
    }

    /// The response snapshot of a lifecycle event (`response.created` ... `response.failed`).
    public var response: Response? {
        switch kind {
        case .responseCreated(let response), .responseQueued(let response), .responseInProgress(let response),
            .responseCompleted(let response), .responseIncomplete(let response), .responseFailed(let response):
            response
        default: nil
        }
    }

    /// The text this event carries: a delta event's `delta` (answer, refusal, reasoning, tool arguments or
    /// code), or an error event's message; nil for the others (whose text, if any, repeats the deltas').
    public var carriedText: String? {
        switch kind {
        case .outputTextDelta(let delta), .refusalDelta(let delta), .reasoningSummaryTextDelta(let delta),
            .reasoningTextDelta(let delta), .functionCallArgumentsDelta(let delta),
            .customToolCallInputDelta(let delta),
            .mcpCallArgumentsDelta(let delta), .codeInterpreterCallCodeDelta(let delta):
            delta.delta
        case .error(let error): error.message
        default: nil
        }
    }

    /// The final response of a terminal event.
    public var finalResponse: Response? { isTerminal ? response : nil }

    /// Every event type the API defines (OpenAI's `ResponseStreamEvent` union), each decoded to its own case.
    public static let knownTypes: [String] = [
        "error",
        "response.audio.delta", "response.audio.done", "response.audio.transcript.delta",
        "response.audio.transcript.done",
        "response.code_interpreter_call.completed", "response.code_interpreter_call.in_progress",
        "response.code_interpreter_call.interpreting", "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "response.completed", "response.content_part.added", "response.content_part.done", "response.created",
        "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "response.failed",
        "response.file_search_call.completed", "response.file_search_call.in_progress",
        "response.file_search_call.searching",
        "response.function_call_arguments.delta", "response.function_call_arguments.done",
        "response.image_generation_call.completed", "response.image_generation_call.generating",
        "response.image_generation_call.in_progress", "response.image_generation_call.partial_image",
        "response.in_progress", "response.incomplete",
        "response.mcp_call.completed", "response.mcp_call.failed", "response.mcp_call.in_progress",
        "response.mcp_call_arguments.delta", "response.mcp_call_arguments.done",
        "response.mcp_list_tools.completed", "response.mcp_list_tools.failed", "response.mcp_list_tools.in_progress",
        "response.output_item.added", "response.output_item.done", "response.output_text.annotation.added",
        "response.output_text.delta", "response.output_text.done", "response.queued",
        "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done",
        "response.reasoning_text.delta", "response.reasoning_text.done",
        "response.refusal.delta", "response.refusal.done",
        "response.shell_call_command.added", "response.shell_call_command.delta", "response.shell_call_command.done",
        "response.shell_call_output_content.delta", "response.shell_call_output_content.done",
        "response.web_search_call.completed", "response.web_search_call.in_progress",
        "response.web_search_call.searching",
    ]
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

    /// Reads the nested shape (`{"type":"error","error":{...}}`, as the API sends it) or the flat one (as
    /// the spec writes it).
    public init(json: JSONValue) {
        self.init(fields: EventFields(json: json))
    }

    init(fields: EventFields) {
        if let nested = fields[.error], nested.objectValue != nil {
            self.init(flat: nested)
            return
        }
        var flat = JSONObject()
        for key in [EventFields.Key.type, .code, .message, .param] { flat[key.name] = fields[key] }
        self.init(flat: .object(flat))
    }

    private init(flat body: JSONValue) {
        self.init(
            type: body["type"]?.stringValue.flatMap { $0 == "error" ? nil : $0 },
            code: body["code"]?.stringValue ?? body["code"]?.intValue.map(String.init),
            message: body["message"]?.stringValue ?? "unknown error",
            param: body["param"]?.stringValue)
    }
}
