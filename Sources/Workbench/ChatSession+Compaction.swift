import ResponsesAPI

/// `/compact`: the conversation compacted on the server (`POST /responses/compact`), the session going on
/// from the compacted items.
extension ChatSession {
    public struct Compaction: Sendable {
        /// Items the next request sends instead of the conversation so far.
        public var items: Int
        public var usage: Usage?
    }

    public mutating func compact() async throws(SettingError) -> Compaction {
        let settings = self.settings
        guard let body = try conversation.compactionBody(model: settings.model, instructions: settings.instructions)
        else {
            throw SettingError("nothing to compact yet: the conversation has no turn")
        }
        var labels = ["session": conversation.sessionID]
        labels["preset"] = settings.preset
        let response: Response
        do {
            response = try await client.compact(body, context: ExchangeContext(labels: labels))
        } catch {
            throw SettingError("the server did not compact the conversation: \(error.message)")
        }
        let items = response.output.map(\.json)
        guard !items.isEmpty else {
            throw SettingError("the server's compaction returned no items; the conversation is unchanged")
        }
        conversation.continueFrom(compacted: items)
        return Compaction(items: items.count, usage: response.usage)
    }
}
