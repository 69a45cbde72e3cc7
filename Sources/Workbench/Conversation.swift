import ResponsesAPI

/// The state that ties turns together, in one of three modes:
/// - `stored`: each turn chains to the last response with `previous_response_id` (the server keeps it);
/// - `stateless`: `store: false`, and every request carries the whole history as input, reasoning items
///   with their encrypted content included, so nothing is kept on the server;
/// - `conversation`: the Conversations API keeps the items; each request names the conversation.
public struct Conversation: Sendable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case stored, stateless, conversation
    }

    public var mode: Mode
    public private(set) var lastResponseID: String?
    /// Identifies the conversation in the inspector (`session`).
    public let sessionID: String
    /// The Conversations API id (mode `conversation`).
    public var conversationID: String?
    /// Every input and output item so far (mode `stateless`).
    public private(set) var history: [JSONValue] = []
    /// After `/compact` in stored mode: the compacted items the next request sends before its new input.
    public internal(set) var compactedItems: [JSONValue]?
    /// What `/retry` needs: the last user turn's input and the state before it.
    public private(set) var lastTurn: (input: JSONValue, previousResponseID: String?, historyCount: Int)?

    public init(sessionID: String, mode: Mode = .stored) {
        self.sessionID = sessionID
        self.mode = mode
    }

    /// The `previous_response_id` the next request carries (stored mode only).
    public var previousResponseID: String? { mode == .stored ? lastResponseID : nil }

    /// Adds what this conversation contributes to a request whose new input is `input`.
    public func apply(to request: inout CreateResponseRequest, input: JSONValue) {
        switch mode {
        case .stored:
            if let compactedItems {
                request.body["input"] = .array(compactedItems + Self.items(input))
                request.body["previous_response_id"] = nil
            } else {
                request.body["input"] = input
            }
        case .stateless:
            request.body["input"] = .array(history + Self.items(input))
            request.body["store"] = false
            var include = request.body["include"]?.arrayValue ?? []
            if !include.contains("reasoning.encrypted_content") { include.append("reasoning.encrypted_content") }
            request.body["include"] = .array(include)
        case .conversation:
            request.body["input"] = input
            if let conversationID { request.body["conversation"] = .string(conversationID) }
        }
    }

    /// The input as a list of items (a string is one user message).
    public static func items(_ input: JSONValue) -> [JSONValue] {
        switch input {
        case .array(let items): items
        case .string(let text): [["role": "user", "content": .string(text)]]
        default: [input]
        }
    }

    /// Marks the start of a user turn (what `/retry` goes back to).
    public mutating func beginTurn(input: JSONValue) {
        lastTurn = (input, lastResponseID, history.count)
    }

    /// Goes back to the state before the last user turn and returns its input, for `/retry`.
    public mutating func rewindLastTurn() -> JSONValue? {
        guard let lastTurn else { return nil }
        lastResponseID = lastTurn.previousResponseID
        history = Array(history.prefix(lastTurn.historyCount))
        return lastTurn.input
    }

    /// Records a request's new input and the response it produced; the next request follows on from it.
    public mutating func record(input: JSONValue, response: Response?) {
        guard let response else { return }
        if !response.id.isEmpty { lastResponseID = response.id }
        compactedItems = nil
        if mode == .stateless {
            history += Self.items(input) + response.output.map(\.json)
        }
    }

    mutating func resetChain() { lastResponseID = nil }

    mutating func replaceHistory(_ items: [JSONValue]) { history = items }

    /// Continues from `responseID` (a resumed session).
    public mutating func resume(from responseID: String) {
        lastResponseID = responseID
    }
}
