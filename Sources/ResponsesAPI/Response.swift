/// A response object (`"object": "response"`). The whole object is kept as `json`; the typed
/// properties are read from it leniently, so unknown fields and item types never fail decoding.
public struct Response: Sendable, Hashable {
    public var json: JSONValue

    public init(json: JSONValue) {
        self.json = json
    }

    public var id: String { json["id"]?.stringValue ?? "" }
    public var status: ResponseStatus? { json["status"]?.stringValue.map(ResponseStatus.init(rawValue:)) }
    public var model: String? { json["model"]?.stringValue }
    public var previousResponseID: String? { json["previous_response_id"]?.stringValue }
    public var usage: Usage? { Usage(json: json["usage"]) }
    public var output: [OutputItem] { (json["output"]?.arrayValue ?? []).map(OutputItem.init(json:)) }

    /// `error` of a failed response: `{code, message}`.
    public var error: (code: String?, message: String?)? {
        guard let error = json["error"], !error.isNull else { return nil }
        return (error["code"]?.stringValue, error["message"]?.stringValue)
    }

    /// `incomplete_details.reason` of an incomplete response.
    public var incompleteReason: String? { json["incomplete_details"]?["reason"]?.stringValue }

    /// The text of every `output_text` part of every message, concatenated (what SDKs call `output_text`).
    public var outputText: String {
        var text = ""
        for item in output {
            if case .message(let message) = item { text += message.text }
        }
        return text
    }
}
