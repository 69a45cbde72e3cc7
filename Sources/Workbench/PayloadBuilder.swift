import ResponsesAPI

/// Turns settings, the conversation and the user's input into the exact request body.
public struct PayloadBuilder: Sendable {
    public init() {}

    public func build(settings: TurnSettings, conversation: Conversation?, input: String) -> CreateResponseRequest {
        var request = CreateResponseRequest(
            model: settings.model, input: .string(input), instructions: settings.instructions,
            previousResponseID: conversation?.lastResponseID)
        for (key, value) in settings.extraBody where request.body[key] == nil { request.body[key] = value }
        request.stream = settings.stream
        return request
    }
}
