import ResponsesAPI

/// A stored-mode conversation: each turn chains to the last response with `previous_response_id`.
public struct Conversation: Sendable, Hashable {
    public private(set) var lastResponseID: String?
    public private(set) var turns = 0
    /// Identifies the conversation in the inspector (`session`).
    public let sessionID: String

    public init(sessionID: String) {
        self.sessionID = sessionID
    }

    /// Records the response a turn produced; the next turn chains to it.
    public mutating func record(responseID: String?) {
        turns += 1
        if let responseID, !responseID.isEmpty { lastResponseID = responseID }
    }
}
