import ResponsesAPI

extension Conversation {
    /// When `request` continued a conversation on the server (`previous_response_id` or `conversation`)
    /// and `response` does not echo it, a one-line notice. An unrelated id in its place means the server
    /// answered without the earlier turns (LiteLLM's `/v1/responses` names a `chatcmpl-...` id and forgets
    /// them); no id at all is only unconfirmed (llama-stack answers null). Nil when the
    /// response echoes what was sent, or nothing was sent.
    public static func continuityNotice(request: CreateResponseRequest, response: Response) -> String? {
        if let sent = request.body["previous_response_id"]?.stringValue {
            guard let echoed = response.json["previous_response_id"]?.stringValue else {
                // llama-stack answers null here whatever it did: say what is known, not more.
                return "the server's response does not confirm that it continued from \(Self.short(sent)) (it names no "
                    + "previous_response_id); if answers forget earlier turns, /mode stateless sends the history with every request"
            }
            guard echoed != sent else { return nil }
            return
                "the server did not continue from \(Self.short(sent)) (its response names \(Self.short(echoed)) instead), so this answer may not know "
                + "the earlier turns; /mode stateless sends the history with every request"
        }
        if let sent = request.body["conversation"].flatMap({ $0.stringValue ?? $0["id"]?.stringValue }) {
            let field = response.json["conversation"]
            guard let echoed = field.flatMap({ $0.stringValue ?? $0["id"]?.stringValue }) else {
                return
                    "the server's response does not confirm that it answered in conversation \(Self.short(sent)) (it names none); "
                    + "if answers forget earlier turns, /mode stateless sends the history with every request"
            }
            guard echoed != sent else { return nil }
            return
                "the server did not answer in conversation \(Self.short(sent)) (its response names \(Self.short(echoed))), so this answer may not "
                + "know the earlier turns; /mode stateless sends the history with every request"
        }
        return nil
    }

    /// An id short enough for one line (LiteLLM's response ids run to hundreds of characters).
    static func short(_ id: String) -> String {
        id.count > 40 ? String(id.prefix(32)) + "…" : id
    }
}
