import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `/compact` in a real terminal: the conversation is compacted by `POST /responses/compact` (chained by
/// `previous_response_id`), the next turn sends the compacted items before its message and starts a new
/// chain, and the turn after chains to it again.
@Suite("/compact")
struct CompactTests {
    /// Compacts into one item on `POST /responses/compact`; answers every turn with `answer N`, N counted
    /// by `turns`.
    static func route(turns: Counter) -> LoopbackServer.Route {
        { request in
            if request.path == "/v1/responses/compact" {
                return .json(
                    #"{"id":"resp_cmp","object":"response.compaction","created_at":1,"output":[{"id":"cmp_1","type":"compaction","encrypted_content":"gAAAA-compacted"}],"usage":{"input_tokens":321,"output_tokens":20,"total_tokens":341}}"#
                )
            }
            let turn = turns.next()
            return .sse(Fixtures.textStream(id: "resp_t\(turn)", text: "answer \(turn)", previousResponseID: nil))
        }
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func theNextTurnGoesOnFromTheCompactedItems() async throws {
        try await ConsoleHarness.withConsole(route: Self.route(turns: Counter())) { tmux, server, _ in
            try await tmux.send(steps: [
                ("/compact", "error: nothing to compact yet: the conversation has no turn"), ("hello", "answer 1"),
                (
                    "/compact",
                    "Compacted the conversation into 1 item (321 tokens read); the next turn goes on from them."
                ),
            ])
            let compact = try #require(server.requests.last?.jsonBody)
            #expect(compact["previous_response_id"] as? String == "resp_t1")
            #expect(compact["model"] != nil)
            try await tmux.send("next", until: "answer 2")
            let next = try #require(server.requests.last?.jsonBody)
            #expect(next["previous_response_id"] == nil, "a new chain starts from the compacted items")
            let input = try #require(next["input"] as? [[String: Any]])
            #expect(input.count == 2)
            #expect(input.first?["type"] as? String == "compaction")
            #expect(input.first?["encrypted_content"] as? String == "gAAAA-compacted")
            #expect(input.last?["role"] as? String == "user" && input.last?["content"] as? String == "next")
            try await tmux.send("third", until: "answer 3")
            #expect(server.requests.last?.jsonBody?["previous_response_id"] as? String == "resp_t2")
            #expect(server.requests.last?.jsonBody?["input"] as? String == "third")
            try tmux.press("C-d")
        }
    }
}
