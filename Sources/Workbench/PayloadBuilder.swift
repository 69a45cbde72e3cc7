import ResponsesAPI

/// Turns settings, the conversation and the user's input into the exact request body.
public struct PayloadBuilder: Sendable {
    public init() {}

    public func build(settings: TurnSettings, conversation: Conversation?, input: String) -> CreateResponseRequest {
        var request = CreateResponseRequest(
            model: settings.model, input: .string(input), instructions: settings.instructions,
            previousResponseID: conversation?.lastResponseID)
        for (key, value) in settings.extraBody where request.body[key] == nil { request.body[key] = value }
        for (path, value) in settings.bodySettings.sorted(by: { $0.key < $1.key }) {
            request.body = Self.setting(path.split(separator: ".").map(String.init)[...], to: value, in: request.body)
        }
        request.stream = settings.stream
        return request
    }

    /// `object` with the value at a dotted path set (or removed, for nil), creating the objects on the way.
    public static func setting(_ path: ArraySlice<String>, to value: JSONValue?, in object: JSONObject) -> JSONObject {
        var object = object
        guard let key = path.first else { return object }
        if path.count == 1 {
            object[key] = value
        } else {
            object[key] = .object(setting(path.dropFirst(), to: value, in: object[key]?.objectValue ?? JSONObject()))
        }
        return object
    }
}
