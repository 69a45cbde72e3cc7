import ResponsesAPI

/// A composed request: the body, and what the user should know about it.
public struct ComposedRequest: Sendable {
    public var request: CreateResponseRequest
    /// Notes to show (capability adjustments, `${...}` references filled when sent, problems of a body built
    /// for display).
    public var notes: [String]
}

extension PayloadBuilder {
    /// The one way a request is made, for every caller (a turn, `ask`, `/payload`, `--dry-run`): settings,
    /// conversation and input through `build`, then the model's capabilities applied (`ModelCapabilities`).
    /// A bad setting throws; so does, for sending, a problem that stops the request (a file_search with no
    /// vector stores), which for display is a note.
    public func compose(
        settings: TurnSettings, conversation: Conversation?, input: JSONValue, for purpose: Purpose
    ) throws(SettingError) -> ComposedRequest {
        // A preset's {{variable}} with no value would go out as written: refused, naming where it is.
        if !settings.missingVariables.isEmpty {
            throw SettingError(settings.missingVariables.map(\.description).joined(separator: "\n"))
        }
        let problems = self.problems(settings: settings)
        if case .send = purpose, let problem = problems.first { throw SettingError(problem) }
        var request = try build(settings: settings, conversation: conversation, input: input, for: purpose)
        var notes = ModelCapabilities.adjust(&request)
        // The API takes stream_options only with stream: true.
        if request.body["stream_options"] != nil, request.body["stream"]?.boolValue != true {
            request.body["stream_options"] = nil
            notes.append("stream_options is left out: it applies to streamed answers only (stream is false)")
        }
        if case .display = purpose {
            notes += problems
            if request.json.compactString.contains("${") {
                notes.append("${...} references are filled from the environment when sent")
            }
        }
        return ComposedRequest(request: request, notes: notes)
    }
}
