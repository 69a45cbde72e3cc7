import ResponsesAPI

extension Conversation {
    /// When `request` continued a conversation on the server (`previous_response_id` or `conversation`)
    /// and `response` does not echo it, a one-line notice: the server answered without the earlier turns
    /// (LiteLLM's `/v1/responses` does this, naming an unrelated id), so the answer has forgotten them.
    /// Nil when the response echoes what was sent, or nothing was sent.
    public static func continuityNotice(request: CreateResponseRequest, response: Response) -> String? {
        if let sent = request.body["previous_response_id"]?.stringValue {
            let echoed = response.json["previous_response_id"]?.stringValue
            guard echoed != sent else { return nil }
            let answered = echoed.map { "names \($0) instead" } ?? "does not name it"
            return "the server did not continue from \(sent) (its response \(answered)), so this answer may not know "
                + "the earlier turns; /mode stateless sends the history with every request"
        }
        if let sent = request.body["conversation"].flatMap({ $0.stringValue ?? $0["id"]?.stringValue }) {
            let field = response.json["conversation"]
            let echoed = field.flatMap { $0.stringValue ?? $0["id"]?.stringValue }
            guard echoed != sent else { return nil }
            return "the server did not answer in conversation \(sent) (its response "
                + (echoed.map { "names \($0)" } ?? "names no conversation")
                + "), so this answer may not know the earlier turns; /mode stateless sends the history with every request"
        }
        return nil
    }
}
