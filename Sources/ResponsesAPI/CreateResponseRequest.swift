/// The body of `POST /responses`: an ordered JSON object, so every field the API has (and any it adds
/// later) can be sent, with typed accessors for the fields the client itself reads or sets.
public struct CreateResponseRequest: Sendable, Hashable {
    public var body: JSONObject

    public init(body: JSONObject = JSONObject()) {
        self.body = body
    }

    public init(model: String, input: JSONValue, instructions: String? = nil, previousResponseID: String? = nil) {
        var body = JSONObject()
        body["model"] = .string(model)
        if let instructions { body["instructions"] = .string(instructions) }
        if let previousResponseID { body["previous_response_id"] = .string(previousResponseID) }
        body["input"] = input
        self.body = body
    }

    public var model: String? {
        get { body["model"]?.stringValue }
        set { body["model"] = newValue.map(JSONValue.string) }
    }

    public var previousResponseID: String? {
        get { body["previous_response_id"]?.stringValue }
        set { body["previous_response_id"] = newValue.map(JSONValue.string) }
    }

    public var stream: Bool {
        get { body["stream"]?.boolValue ?? false }
        set { body["stream"] = .bool(newValue) }
    }

    public var json: JSONValue { .object(body) }
}
