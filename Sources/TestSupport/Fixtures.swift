import Foundation

/// The project's own fixtures in `Tests/Fixtures`, and the shared conformance recordings when present.
public enum Fixtures {
    /// `Tests/Fixtures` of this checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// `../shared/conformance` beside the checkout, or nil when it is absent (tests then skip).
    public static let conformanceDirectory: URL? = {
        let url = directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/conformance", isDirectory: true)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The presets this checkout ships, in `presets/`.
    public static let shippedPresets = directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("presets", isDirectory: true)

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    public static func text(_ name: String) -> String {
        guard let text = try? String(contentsOf: url(name), encoding: .utf8) else {
            fatalError("missing fixture \(url(name).path)")
        }
        return text
    }

    /// The frames of an SSE fixture: each event with its terminating blank line.
    public static func frames(_ name: String) -> [String] {
        text(name).components(separatedBy: "\n\n").filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        .map { $0 + "\n\n" }
    }

    /// A streamed text answer built on the fly: `response.created` ... one delta per word ... `response.completed`.
    public static func textStream(
        id: String, model: String = "test-model", text: String, previousResponseID: String? = nil,
        status: String = "completed"
    ) -> [String] {
        func quote(_ string: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [string], options: [.withoutEscapingSlashes])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        let previous = previousResponseID.map(quote) ?? "null"
        let item = "msg_\(id.dropFirst(5))"
        func response(_ status: String, output: String, usage: String) -> String {
            #"{"id":\#(quote(id)),"object":"response","created_at":1795270000,"status":\#(quote(status)),"model":\#(quote(model)),"previous_response_id":\#(previous),"output":\#(output),"usage":\#(usage)\#(status == "incomplete" ? #","incomplete_details":{"reason":"max_output_tokens"}"# : "")}"#
        }
        var frames: [String] = []
        var sequence = 0
        func frame(_ type: String, _ body: String) {
            frames.append("event: \(type)\ndata: {\"type\":\"\(type)\",\"sequence_number\":\(sequence),\(body)}\n\n")
            sequence += 1
        }
        frame("response.created", #""response":\#(response("in_progress", output: "[]", usage: "null"))"#)
        frame("response.in_progress", #""response":\#(response("in_progress", output: "[]", usage: "null"))"#)
        frame(
            "response.output_item.added",
            #""output_index":0,"item":{"id":"\#(item)","type":"message","status":"in_progress","role":"assistant","content":[]}"#
        )
        frame(
            "response.content_part.added",
            #""item_id":"\#(item)","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}"#
        )
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        for (index, word) in words.enumerated() {
            let delta = index == words.count - 1 ? String(word) : word + " "
            frame(
                "response.output_text.delta",
                #""item_id":"\#(item)","output_index":0,"content_index":0,"delta":\#(quote(delta)),"logprobs":[]"#)
        }
        let final =
            #"[{"id":"\#(item)","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":\#(quote(text)),"annotations":[]}]}]"#
        frame(
            "response.output_text.done",
            #""item_id":"\#(item)","output_index":0,"content_index":0,"text":\#(quote(text)),"logprobs":[]"#)
        frame(
            "response.content_part.done",
            #""item_id":"\#(item)","output_index":0,"content_index":0,"part":{"type":"output_text","text":\#(quote(text)),"annotations":[]}"#
        )
        frame("response.output_item.done", #""output_index":0,"item":\#(String(final.dropFirst().dropLast()))"#)
        let usage =
            #"{"input_tokens":12,"input_tokens_details":{"cached_tokens":2},"output_tokens":\#(words.count),"output_tokens_details":{"reasoning_tokens":0},"total_tokens":\#(12 + words.count)}"#
        frame("response.\(status)", #""response":\#(response(status, output: final, usage: usage))"#)
        return frames
    }

    /// A streamed answer of about `megabytes` MB on the wire, in deltas of a few words (for benchmarks).
    public static func largeTextStream(megabytes: Double) -> [String] {
        let words = ["stream ", "delta ", "tokens ", "flow ", "quickly ", "over ", "the ", "wire ", "héllo ", "wörld "]
        var deltas: [String] = []
        var size = 0
        var index = 0
        var text = ""
        while Double(size) < megabytes * 1_048_576 {
            let delta = words[index % 10] + words[(index + 3) % 10] + words[(index + 7) % 10]
            index += 1
            text += delta
            deltas.append(delta)
            size += 190 + delta.utf8.count
        }
        return textStream(id: "resp_bench", text: text).prefix(4)
            + deltas.enumerated().map { offset, delta in
                "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":\(offset + 4),\"item_id\":\"msg_bench\",\"output_index\":0,\"content_index\":0,\"delta\":\"\(delta)\",\"logprobs\":[]}\n\n"
            } + textStream(id: "resp_bench", text: "done").suffix(1)
    }

    /// Frames joined into 64 KiB chunks, as a server flushing a fast stream sends them.
    public static func chunked(_ frames: [String]) -> [Reply.Part] {
        var chunks: [Reply.Part] = []
        var current: [UInt8] = []
        for frame in frames {
            current.append(contentsOf: frame.utf8)
            if current.count >= 65536 {
                chunks.append(.bytes(current))
                current = []
            }
        }
        if !current.isEmpty { chunks.append(.bytes(current)) }
        return chunks
    }
}
