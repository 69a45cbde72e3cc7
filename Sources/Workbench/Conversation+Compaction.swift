import ResponsesAPI

/// `/compact`: the conversation so far replaced by the shorter items `POST /responses/compact` returns.
/// Stored mode sends them as the next request's input before the new message, without a
/// `previous_response_id` (a new chain starts there); stateless mode keeps them as its history. The
/// Conversations API keeps its items on the server, where this cannot replace them.
extension Conversation {
    /// The body of the compaction request for this conversation (model and instructions added by the
    /// caller); nil when there is nothing to compact.
    public func compactionBody(model: String, instructions: String?) throws(SettingError) -> JSONObject? {
        var body: JSONObject = ["model": .string(model)]
        if let instructions { body["instructions"] = .string(instructions) }
        switch mode {
        case .stored:
            if let pending = compactedItems {
                body["input"] = .array(pending)
            } else {
                guard let lastResponseID else { return nil }
                body["previous_response_id"] = .string(lastResponseID)
            }
        case .stateless:
            guard !history.isEmpty else { return nil }
            body["input"] = .array(history)
        case .conversation:
            throw SettingError(
                "/compact works in the stored and stateless modes: a Conversations API conversation keeps its items on the server (its context_management compacts it there)"
            )
        }
        return body
    }

    /// Goes on from `items` (the compacted response's output).
    public mutating func continueFrom(compacted items: [JSONValue]) {
        switch mode {
        case .stored:
            compactedItems = items
            resetChain()
        case .stateless:
            replaceHistory(items)
        case .conversation:
            break
        }
    }
}
