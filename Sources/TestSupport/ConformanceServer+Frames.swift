import Foundation
import ResponsesAPI

/// The conformance server's streams, event for event as OpenAI sends them (EVENTS.md's lifecycle): created,
/// in_progress, each output item from `added` to `done` with its own events between, completed.
extension ConformanceServer {
    func frames(id: String, output: [JSONValue], body: JSONValue) -> [String] {
        var events: [JSONObject] = []
        func add(_ type: String, _ fields: JSONObject = [:]) {
            var event: JSONObject = ["type": .string(type)]
            for (key, value) in fields { event[key] = value }
            events.append(event)
        }
        let started = response(id: id, status: "in_progress", output: [], body: body)
        add("response.created", ["response": started])
        add("response.in_progress", ["response": started])
        for (index, item) in output.enumerated() {
            let itemID = item["id"] ?? ""
            let at: JSONObject = ["item_id": itemID, "output_index": .integer(index)]
            var opened = item.objectValue ?? [:]
            opened["status"] = "in_progress"
            switch item["type"]?.stringValue {
            case "message":
                opened["content"] = []
                add("response.output_item.added", ["output_index": .integer(index), "item": .object(opened)])
                let text = item["content"]?[0]?["text"]?.stringValue ?? ""
                var part = at
                part["content_index"] = 0
                add(
                    "response.content_part.added",
                    part.merging(["part": ["type": "output_text", "text": "", "annotations": []]]))
                let words = text.split(separator: " ", omittingEmptySubsequences: false)
                for (number, word) in words.enumerated() {
                    let delta = number == words.count - 1 ? String(word) : word + " "
                    add("response.output_text.delta", part.merging(["delta": .string(delta), "logprobs": []]))
                }
                add("response.output_text.done", part.merging(["text": .string(text), "logprobs": []]))
                add("response.content_part.done", part.merging(["part": item["content"]?[0] ?? .null]))
            case "function_call":
                opened["arguments"] = ""
                add("response.output_item.added", ["output_index": .integer(index), "item": .object(opened)])
                let arguments = item["arguments"] ?? ""
                add("response.function_call_arguments.delta", at.merging(["delta": arguments]))
                add("response.function_call_arguments.done", at.merging(["arguments": arguments]))
            case "reasoning":
                opened["summary"] = []
                add("response.output_item.added", ["output_index": .integer(index), "item": .object(opened)])
                let summary = item["summary"]?[0] ?? .null
                var part = at
                part["summary_index"] = 0
                add(
                    "response.reasoning_summary_part.added",
                    part.merging(["part": ["type": "summary_text", "text": ""]]))
                add("response.reasoning_summary_text.delta", part.merging(["delta": summary["text"] ?? ""]))
                add("response.reasoning_summary_text.done", part.merging(["text": summary["text"] ?? ""]))
                add("response.reasoning_summary_part.done", part.merging(["part": summary]))
            default:
                add("response.output_item.added", ["output_index": .integer(index), "item": .object(opened)])
                for state in ["in_progress", "searching", "completed"] { add("response.file_search_call.\(state)", at) }
            }
            add("response.output_item.done", ["output_index": .integer(index), "item": item])
        }
        add("response.completed", ["response": response(id: id, status: "completed", output: output, body: body)])
        return events.enumerated().map { number, event in
            var event = event
            if !(flaws.contains(.dropsASequenceNumber) && number == 6) { event["sequence_number"] = .integer(number) }
            let type = event["type"]?.stringValue ?? ""
            return "event: \(type)\ndata: \(String(decoding: JSONValue.object(event).serialized(), as: UTF8.self))\n\n"
        }
    }
}

extension JSONObject {
    func merging(_ other: JSONObject) -> JSONObject {
        var merged = self
        for (key, value) in other { merged[key] = value }
        return merged
    }
}
