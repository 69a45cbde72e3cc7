import Foundation
import GRDB

extension InspectorStore {
    /// The prompt-cache pairs among the `/responses` requests started in `since ..< before`, oldest first:
    /// each request paired with the one it continues (`previous_response_id`), else with the last request
    /// of the same group (provider and preset for the console, provider and client for the proxy) whose
    /// first user message is its own (a stateless conversation resending its history), else with the last
    /// request of its group (a new conversation). An earlier request more than an hour before is no pair:
    /// no cache lasts that long. With `ids`, only the pairs ending at those exchanges and,
    /// for a chain or a resent conversation, at every turn before them.
    ///
    /// The rows are read one at a time and only the last prompt of each group, conversation and chain of the
    /// last hour is kept (a chained request needs no more of the turn it continues than its tools and
    /// instructions), so memory stays bounded by the traffic of an hour, not by the bodies' total size.
    public func cacheReport(since: Date, before: Date? = nil, ids: Set<Int64>? = nil, prices: PriceTable) async throws
        -> CacheReport
    {
        try await writer.read { db in
            typealias Entry = (side: CacheReport.Side, prompt: CachePrompt)
            var lastInGroup: [String: Entry] = [:]
            var lastInConversation: [String: Entry] = [:]
            var byResponse: [String: Entry] = [:]
            var pairs: [CacheReport.Pair] = []
            var examined = 0
            var window: (sql: String, arguments: StatementArguments) = ("started_at >= ?", [StorageDate.string(since)])
            if let before {
                window.sql += " AND started_at < ?"
                _ = window.arguments.append(contentsOf: [StorageDate.string(before)])
            }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, started_at, model, preset, client, source, provider, response_id, input_tokens,
                           cached_tokens, \(Self.requestBodyColumn)
                    FROM exchange
                    WHERE \(window.sql) AND method = 'POST'
                      AND (url LIKE '%/responses' OR url LIKE '%/responses?%')
                    ORDER BY started_at, id
                    """,
                arguments: window.arguments)
            while let row = try rows.next() {
                guard let body = Self.bytes(row["request_body"]), var prompt = CachePrompt(body: body) else { continue }
                examined += 1
                let side = CacheReport.Side(
                    id: row["id"], startedAt: row["started_at"], model: row["model"] ?? prompt.model,
                    inputTokens: TokenCount.clamped(row["input_tokens"]),
                    cachedTokens: TokenCount.clamped(row["cached_tokens"]))
                let source: String = row["source"]
                let member: String = source == "proxy" ? row["client"] ?? "" : row["preset"] ?? ""
                let group = [source, row["provider"] ?? "", member].joined(separator: "\u{1F}")
                // A conversation is known by its first user message: a developer or system message first is
                // the same in every conversation of a client.
                let opening = prompt.items.first { $0["role"]?.stringValue == "user" } ?? prompt.items.first
                let conversation = opening.map { group + "\u{1F}" + String($0.hashValue) }
                // What has not been seen for an hour has no cache left to reuse.
                let hourAgo = side.startedAt.addingTimeInterval(-3600)
                func recent(_ entry: Entry?) -> Entry? { entry.flatMap { $0.side.startedAt >= hourAgo ? $0 : nil } }
                let earlier: (Entry, CacheReport.Relation)? =
                    if let previous = prompt.previousResponseID {
                        // A chained turn starts with its chain's history: only the turn it continues compares.
                        recent(byResponse[previous]).map { ($0, .chained) }
                    } else {
                        conversation.flatMap { recent(lastInConversation[$0]) }.map { ($0, .resent) }
                            ?? recent(lastInGroup[group]).map { ($0, .newConversation) }
                    }
                if let (earlier, relation) = earlier {
                    pairs.append(
                        CacheReport.pair(
                            earlier: earlier.side, earlierPrompt: earlier.prompt, later: side, laterPrompt: prompt,
                            relation: relation, prices: prices))
                }
                lastInGroup[group] = (side, prompt)
                if prompt.previousResponseID == nil, let conversation {
                    lastInConversation[conversation] = (side, prompt)
                }
                if let response: String = row["response_id"] {
                    // What a turn that continues this one compares: model, key, tools, instructions, size.
                    prompt.items = []
                    byResponse[response] = (side, prompt)
                }
                // What is over an hour old is let go, so a day of traffic does not pile up in memory.
                if examined % 256 == 0 {
                    lastInConversation = lastInConversation.filter { $0.value.side.startedAt >= hourAgo }
                    byResponse = byResponse.filter { $0.value.side.startedAt >= hourAgo }
                    lastInGroup = lastInGroup.filter { $0.value.side.startedAt >= hourAgo }
                }
            }
            return CacheReport(pairs: Self.selected(pairs, ids: ids), examined: examined)
        }
    }

    /// The pairs that end at `ids`, and for a chained or resent pair the ones before it down the conversation.
    static func selected(_ pairs: [CacheReport.Pair], ids: Set<Int64>?) -> [CacheReport.Pair] {
        guard let ids else { return pairs }
        let byLater = Dictionary(pairs.map { ($0.later.id, $0) }, uniquingKeysWith: { first, _ in first })
        var wanted = Set<Int64>()
        for id in ids {
            var current = byLater[id]
            while let pair = current, wanted.insert(pair.later.id).inserted {
                current = pair.relation == .newConversation ? nil : byLater[pair.earlier.id]
            }
        }
        return pairs.filter { wanted.contains($0.later.id) }
    }
}
