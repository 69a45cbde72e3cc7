import Foundation
import GRDB
import Inspector
import ResponsesAPI

/// A store shaped as a team's day of traffic for `inspect cache`: 200 conversations of 50 turns,
/// interleaved in time. Half are chained (`previous_response_id`; 3 KB of instructions and three tools, a
/// quarter of them with a timestamp in the instructions that changes each turn), half stateless (the
/// history resent with each turn, so bodies grow to about 50 KB), a quarter sent by a proxied client.
func fillCache(path: String, count: Int) throws {
    try? FileManager.default.removeItem(atPath: path)
    let store = try InspectorStore.open(at: path)
    let rules = String(
        repeating: "Answer in the house style: short sentences, units in SI, cite the runbook. ", count: 40)
    let tools: JSONValue = .array(
        ["lookup_invoice", "refund", "escalate"].map { name in
            [
                "type": "function", "name": .string(name), "description": .string("\(name) for the billing team"),
                "parameters": [
                    "type": "object", "properties": ["id": ["type": "string"], "note": ["type": "string"]],
                ],
            ]
        })
    let conversations = max(1, count / 50)
    let start = ContinuousClock.now
    try store.writer.write { db in
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO exchange (started_at, method, url, request_headers, request_body, streamed, state, status,
                                      model, response_id, input_tokens, cached_tokens, output_tokens, preset, source,
                                      client)
                VALUES (?, 'POST', 'https://api.openai.com/v1/responses', '[]', ?, 1, 'completed', 200, ?, ?, ?, ?, 40,
                        ?, ?, ?)
                """)
        var history: [[JSONValue]] = Array(repeating: [], count: conversations)
        for index in 0..<count {
            let conversation = index % conversations
            let turn = index / conversations
            let chained = conversation % 2 == 0
            let stamped = conversation % 8 == 0
            var instructions = rules
            if stamped { instructions += "Now: 2026-11-28T10:\(String(format: "%02d", turn % 60))" }
            let question: JSONValue = [
                "role": "user", "content": .string("Invoice \(index): why was it charged twice?"),
            ]
            var body: JSONObject = [
                "model": "gpt-4.1-mini", "instructions": .string(instructions), "tools": tools, "stream": true,
            ]
            if chained {
                body["input"] = .array([question])
                if turn > 0 { body["previous_response_id"] = .string("resp_\(index - conversations)") }
            } else {
                history[conversation].append(question)
                body["input"] = .array(history[conversation])
                history[conversation].append(
                    [
                        "role": "assistant",
                        "content": .string(String(repeating: "It was charged twice because ", count: 28)),
                    ])
            }
            let tokens = 1500 + 250 * turn
            let cached = turn == 0 || stamped ? 0 : 1024 + (tokens - 1274) / 128 * 128
            let proxied = conversation % 4 == 1
            try insert.execute(arguments: [
                Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 2), JSONValue.object(body).compactString,
                "gpt-4.1-mini-2025-04-14", "resp_\(index)", tokens, cached, proxied ? nil : "support",
                proxied ? "proxy" : "console", proxied ? "OpenAI/Python 1.99.0 (conversation \(conversation))" : nil,
            ])
        }
    }
    _ = try store.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print(
        String(
            format: "filled=%d conversations=%d seconds=%.1f store_MB=%.1f path=%@", count, conversations,
            seconds(ContinuousClock.now - start), Double(size) / 1_048_576, path))
}
