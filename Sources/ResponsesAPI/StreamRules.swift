/// The rules an event stream of `POST /responses` follows when OpenAI sends it, read from OpenAI's recorded
/// streams and its spec (`StreamRules+Tables`): which event types there are and the fields each carries,
/// `sequence_number` on every event, from 0 and up by one, `response.created` first, output items added in
/// order and each event of an item between its `added` and its `done`, exactly one terminal event and
/// nothing after it but `[DONE]`, and the shape of the response `response.completed` carries.
///
/// `firstDifference` says where a stream first departs from them, in words ("event 7
/// `response.output_text.delta`: no `sequence_number`"); nil when it follows them all.
public struct StreamRules: Sendable {
    /// Where the stream starts: a new response (`response.created`, `sequence_number` 0), or a stored one
    /// resumed part-way (`starting_after`), which starts wherever it was asked to.
    public enum Start: Sendable { case fresh, resumed }

    public var start: Start
    /// Streams recorded before `sequence_number` existed (OpenAI, March 2025) have none on any event: with
    /// this, such a stream is accepted (one that has it on some events and not others never is).
    public var allowsStreamsWithoutSequenceNumbers: Bool

    public init(start: Start = .fresh, allowsStreamsWithoutSequenceNumbers: Bool = false) {
        self.start = start
        self.allowsStreamsWithoutSequenceNumbers = allowsStreamsWithoutSequenceNumbers
    }

    /// Where a stream first departs from the rules: the event's position (from 1) and type, or none for
    /// the stream as a whole (position 0: it ended without a terminal event, or held no event).
    public struct Difference: Sendable, Hashable, CustomStringConvertible {
        public var position: Int
        public var type: String
        public var problem: String

        public var description: String {
            position == 0 ? problem : "event \(position) `\(type)`: \(problem)"
        }
    }

    /// The first place `events` departs from the rules, or nil.
    public func firstDifference(_ events: [ResponseStreamEvent]) -> Difference? {
        var state = Walk()
        let withoutSequence =
            allowsStreamsWithoutSequenceNumbers && events.allSatisfy { $0.kind == .done || $0.sequenceNumber == nil }
        for (index, event) in events.enumerated() {
            let position = index + 1
            func difference(_ problem: String) -> Difference {
                Difference(position: position, type: event.type, problem: problem)
            }
            if event.kind == .done {
                // OpenAI sends none; a client stops at it, so after the terminal event it changes nothing.
                guard state.ended else { return difference("`[DONE]` before the terminal event") }
                continue
            }
            if state.ended { return difference("after the terminal event") }
            let json = event.json
            guard case .object = json, let type = json["type"]?.stringValue else {
                return difference("not a JSON object with a `type`")
            }
            if !withoutSequence, let problem = state.sequence(json["sequence_number"], start: start) {
                return difference(problem)
            }
            guard let fields = Self.requiredFields[type] else {
                return difference("not an event type OpenAI sends")
            }
            if let missing = fields.first(where: { json[$0] == nil || json[$0] == .null }) {
                return difference("no `\(missing)`")
            }
            if type == "error", json["message"]?.stringValue == nil, json["error"]?["message"]?.stringValue == nil {
                return difference("no `message`")
            }
            if let problem = state.order(type, json: json, start: start) { return difference(problem) }
        }
        if events.allSatisfy({ $0.kind == .done }) {
            return Difference(position: 0, type: "", problem: "no events")
        }
        guard state.ended || state.endedInError else {
            return Difference(
                position: 0, type: "",
                problem: "the stream ended after event \(events.count) without `response.completed`")
        }
        return nil
    }

    /// The shape of the response of a `response.completed` event: `completedResponseFields`, status
    /// `completed`, object `response`, each output item with a type and an id (a message with its role and
    /// content). Nil when it has that shape.
    public static func completedResponseProblem(_ response: JSONValue) -> String? {
        if let missing = completedResponseFields.first(where: { response[$0] == nil || response[$0] == .null }) {
            return "the completed response has no `\(missing)`"
        }
        if response["object"]?.stringValue != "response" {
            return "the completed response's `object` is not `response`"
        }
        if response["status"]?.stringValue != "completed" {
            return "the completed response's `status` is not `completed`"
        }
        guard let output = response["output"]?.arrayValue else {
            return "the completed response's `output` is not a list"
        }
        for (index, item) in output.enumerated() {
            if let missing = outputItemFields.first(where: { item[$0]?.stringValue == nil }) {
                return "output item \(index) of the completed response has no `\(missing)`"
            }
            if item["type"]?.stringValue == "message",
                let missing = messageFields.first(where: { item[$0] == nil || item[$0] == .null })
            {
                return "message \(index) of the completed response has no `\(missing)`"
            }
        }
        return nil
    }
}
