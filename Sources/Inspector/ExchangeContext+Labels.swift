import ResponsesAPI

/// The labels the inspector stores in its own columns: `preset` (the preset in use), `session` (the
/// console session or conversation), `replay_of` (the exchange an `inspect replay` sends again) and `eval` (the
/// `openresponses eval` run a call belongs to, stored as `eval_run`).
extension ExchangeContext {
    public init(preset: String? = nil, session: String? = nil, replayOf: Int64? = nil) {
        var labels: [String: String] = [:]
        labels["preset"] = preset
        labels["session"] = session
        labels["replay_of"] = replayOf.map(String.init)
        self.init(labels: labels)
    }

    public var preset: String? { labels["preset"] }
    public var session: String? { labels["session"] }
    public var replayOf: Int64? { labels["replay_of"].flatMap { Int64($0) } }
    public var evalRun: String? { labels["eval"] }
    /// The Batch API batch a recorded result belongs to (`batch_id`; its request's `custom_id` is the label
    /// `batch_request`): its cost is at the batch price.
    public var batchID: String? { labels["batch"] }
}
