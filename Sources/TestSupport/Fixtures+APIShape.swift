import Foundation

/// Long answers in the shape the API sends them (issue 19): text with multi-byte characters and line breaks,
/// in large deltas, then the four events that end a message each carrying the whole text again
/// (`response.output_text.done`, `response.content_part.done`, `response.output_item.done`,
/// `response.completed`), so a 50 MB answer is about 250 MB on the wire.
extension Fixtures {
    /// The answer text of `apiTextStream`: about `bytes` bytes of UTF-8, lines of words in several scripts.
    /// Past `repeatingPast` bytes (256 KB; nil: never) the text so far (which ends after a whole word)
    /// repeats: built word by word, 50 MB took the tests' debug build most of a minute of one of the
    /// concurrency pool's two threads. The benchmarks' release build makes it whole.
    public static func apiText(bytes: Int, repeatingPast: Int? = 256 << 10) -> String {
        guard let block = repeatingPast, bytes > block else { return apiTextBlock(bytes: bytes) }
        let first = apiTextBlock(bytes: block)
        return String(repeating: first, count: bytes / first.utf8.count + 1)
    }

    private static func apiTextBlock(bytes: Int) -> String {
        let words = [
            "stream", "delta", "héllo", "wörld", "naïve", "café", "日本語", "テキスト", "中文", "ελληνικά",
            "кириллица", "emoji 🙂", "🚀", "tokens", "the", "wire", "quickly", "over", "answer", "done",
        ]
        var text = ""
        text.reserveCapacity(bytes + 64)
        var index = 0
        var line = 0
        while text.utf8.count < bytes {
            let word = words[(index * 7 + index / 20) % words.count]
            text += word
            line += word.utf8.count + 1
            if line > 80 {
                text += "\n"
                line = 0
            } else {
                text += " "
            }
            index += 1
        }
        return text
    }

    /// The frames of an answer of about `megabytes` MB of text in deltas of about `deltaBytes` bytes (cut
    /// between Unicode scalars, as a model's tokens may cut an emoji sequence), ended as the API ends one. `text` is what a client must show.
    public static func apiTextStream(
        megabytes: Double, deltaBytes: Int = 32 * 1024, repeatingPast: Int? = 256 << 10
    ) -> (frames: [String], text: String) {
        apiTextStream(
            text: apiText(bytes: Int(megabytes * 1_048_576), repeatingPast: repeatingPast), deltaBytes: deltaBytes)
    }

    /// The frames of `text` in deltas of about `deltaBytes` bytes, ended as the API ends a message.
    public static func apiTextStream(text: String, deltaBytes: Int = 32 * 1024) -> (frames: [String], text: String) {
        // Backslashes, quotes and line breaks escaped, the runs between them found by libc's `strcspn` and
        // copied whole: a scalar at a time (or with Foundation's replacing), 100 MB took the tests' debug build
        // from a quarter to most of a minute.
        func quote(_ string: String) -> String {
            var out: [UInt8] = [0x22]
            out.reserveCapacity(string.utf8.count + string.utf8.count / 16 + 2)
            string.utf8CString.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress!
                let end = buffer.baseAddress! + (buffer.count - 1)
                while cursor < end {
                    let run = strcspn(cursor, "\\\"\n")
                    cursor.withMemoryRebound(to: UInt8.self, capacity: run) {
                        out.append(contentsOf: UnsafeBufferPointer(start: $0, count: run))
                    }
                    cursor += run
                    guard cursor < end else { break }
                    switch cursor.pointee {
                    case 0x5C: out += [0x5C, 0x5C]
                    case 0x22: out += [0x5C, 0x22]
                    case 0x0A: out += [0x5C, 0x6E]
                    default: out.append(0)  // a NUL in the text, where strcspn stopped
                    }
                    cursor += 1
                }
            }
            out.append(0x22)
            return String(decoding: out, as: UTF8.self)
        }
        var frames: [String] = []
        var sequence = 0
        func frame(_ type: String, _ body: String) {
            frames.append("event: \(type)\ndata: {\"type\":\"\(type)\",\"sequence_number\":\(sequence),\(body)}\n\n")
            sequence += 1
        }
        let created =
            #"{"id":"resp_api","object":"response","created_at":1795270000,"status":"in_progress","model":"bench-model","output":[],"usage":null}"#
        frame("response.created", #""response":\#(created)"#)
        frame("response.in_progress", #""response":\#(created)"#)
        frame(
            "response.output_item.added",
            #""output_index":0,"item":{"id":"msg_api","type":"message","status":"in_progress","role":"assistant","content":[]}"#
        )
        frame(
            "response.content_part.added",
            #""item_id":"msg_api","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}"#
        )
        var start = text.startIndex
        while start < text.endIndex {
            var end = text.utf8.index(start, offsetBy: deltaBytes, limitedBy: text.endIndex) ?? text.endIndex
            while end < text.endIndex, text.utf8[end] & 0xC0 == 0x80 { end = text.utf8.index(after: end) }
            let delta = String(decoding: text.utf8[start..<end], as: UTF8.self)
            frame(
                "response.output_text.delta",
                #""item_id":"msg_api","output_index":0,"content_index":0,"delta":\#(quote(delta)),"logprobs":[],"obfuscation":"a1b2""#
            )
            start = end
        }
        let whole = quote(text)
        let part = #"{"type":"output_text","text":\#(whole),"annotations":[],"logprobs":[]}"#
        let item = #"{"id":"msg_api","type":"message","status":"completed","role":"assistant","content":[\#(part)]}"#
        frame(
            "response.output_text.done",
            #""item_id":"msg_api","output_index":0,"content_index":0,"text":\#(whole),"logprobs":[]"#)
        frame("response.content_part.done", #""item_id":"msg_api","output_index":0,"content_index":0,"part":\#(part)"#)
        frame("response.output_item.done", #""output_index":0,"item":\#(item)"#)
        let usage =
            #"{"input_tokens":12,"input_tokens_details":{"cached_tokens":0},"output_tokens":1000,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":1012}"#
        frame(
            "response.completed",
            #""response":{"id":"resp_api","object":"response","created_at":1795270000,"status":"completed","model":"bench-model","output":[\#(item)],"usage":\#(usage)}"#
        )
        return (frames, text)
    }

    /// The bytes of a frame's `data:` line (a frame of one data line, as these fixtures make them), found with
    /// `memchr`: split into lines as a `String`, a 50 MB final event took the debug build tens of seconds.
    public static func eventData(_ frame: String) -> [UInt8] {
        let bytes = Array(frame.utf8)
        let prefix: [UInt8] = Array("data: ".utf8)
        var line = 0
        while line < bytes.count {
            let end: Int = bytes.withUnsafeBytes { raw in
                guard let found = memchr(raw.baseAddress! + line, 0x0A, bytes.count - line) else { return bytes.count }
                return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            if end - line >= prefix.count, Array(bytes[line..<(line + prefix.count)]) == prefix {
                return Array(bytes[(line + prefix.count)..<end])
            }
            line = end + 1
        }
        return []
    }
}
