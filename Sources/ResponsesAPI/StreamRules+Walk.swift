extension StreamRules {
    /// What a walk through one stream has seen so far: the last sequence number, the output items added and
    /// those still open, the content parts open, and whether the response has ended.
    struct Walk {
        var seen = 0
        var lastSequence: Int?
        var itemsAdded = 0
        var openItems: Set<Int> = []
        var openParts: Set<[Int]> = []
        var ended = false
        var endedInError = false

        /// The problem with this event's `sequence_number`, if any.
        mutating func sequence(_ value: JSONValue?, start: Start) -> String? {
            guard let value, value != .null else { return "no `sequence_number`" }
            guard let number = value.intValue else { return "`sequence_number` is not a whole number" }
            defer { lastSequence = number }
            guard let last = lastSequence else {
                return start == .fresh && number != 0 ? "`sequence_number` starts at \(number), not 0" : nil
            }
            return number == last + 1 ? nil : "`sequence_number` \(number) after \(last) (expected \(last + 1))"
        }

        /// The problem with this event's place in the stream, if any.
        mutating func order(_ type: String, json: JSONValue, start: Start) -> String? {
            seen += 1
            if endedInError, type != "response.failed" { return "after an `error` event, only `response.failed`" }
            if seen == 1, start == .fresh, type != "response.created" {
                return "the stream starts with it, not with `response.created`"
            }
            if seen > 1, type == "response.created" { return "a second `response.created`" }
            let outputIndex = json["output_index"]?.intValue
            switch type {
            case "response.queued", "response.in_progress":
                if itemsAdded > 0 { return "after output items were added" }
            case "response.completed":
                // An item may be left open: OpenAI's own stream of MCP tool lists did so (recorded).
                ended = true
                return StreamRules.completedResponseProblem(json["response"] ?? .null)
            case "response.incomplete", "response.failed":
                ended = true
            case "error":
                endedInError = true
            case "response.output_item.added":
                guard let index = outputIndex, index == itemsAdded else {
                    return "output item \(outputIndex.map(String.init) ?? "?") added after \(itemsAdded) items "
                        + "(expected \(itemsAdded))"
                }
                itemsAdded += 1
                openItems.insert(index)
            case "response.output_item.done":
                guard let index = outputIndex, openItems.remove(index) != nil else {
                    return "output item \(outputIndex.map(String.init) ?? "?") is not open"
                }
            default:
                guard let index = outputIndex else { return nil }
                guard openItems.contains(index) else {
                    return "output item \(index) is not open (added and not done)"
                }
                return part(type, item: index, content: json["content_index"]?.intValue)
            }
            return nil
        }

        /// Content parts: opened and closed by `content_part.added` and `.done`; text and refusal events
        /// only inside an open one.
        mutating func part(_ type: String, item: Int, content: Int?) -> String? {
            guard let content else { return nil }
            let key = [item, content]
            switch type {
            case "response.content_part.added":
                guard openParts.insert(key).inserted else { return "content part \(content) is already open" }
            case "response.content_part.done":
                guard openParts.remove(key) != nil else {
                    return "content part \(content) of output item \(item) is not open"
                }
            default:
                if StreamRules.partScopedTypes.contains(type), !openParts.contains(key) {
                    return "content part \(content) of output item \(item) is not open"
                }
            }
            return nil
        }
    }
}
