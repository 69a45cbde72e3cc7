import ResponsesAPI
import Testing

@testable import Workbench

/// What `/compact` makes of each conversation mode: the compaction request's body, and the next request's.
@Suite("Conversation compaction")
struct CompactionTests {
    let compacted: [JSONValue] = [["id": "cmp_1", "type": "compaction", "encrypted_content": "gAAA"]]

    func answer(_ id: String) -> Response {
        Response(json: [
            "id": .string(id), "object": "response", "status": "completed",
            "output": [
                ["type": "message", "role": "assistant", "content": [["type": "output_text", "text": "ok"]]]
            ],
        ])
    }

    @Test func statelessKeepsTheCompactedItemsAsItsHistory() throws {
        var conversation = Conversation(sessionID: "s", mode: .stateless)
        #expect(
            try conversation.compactionBody(model: "gpt-5.1", instructions: nil) == nil,
            "nothing to compact before a turn")
        conversation.record(input: "first", response: answer("resp_1"))
        let body = try #require(try conversation.compactionBody(model: "gpt-5.1", instructions: "Be brief."))
        #expect(body["input"]?.arrayValue?.count == 2, "the user's message and the answer")
        #expect(body["instructions"] == "Be brief.")
        #expect(body["previous_response_id"] == nil)
        conversation.continueFrom(compacted: compacted)
        var request = CreateResponseRequest(model: "gpt-5.1", input: "")
        conversation.apply(to: &request, input: "second")
        #expect(request.body["input"] == .array(compacted + [["role": "user", "content": "second"]]))
        #expect(request.body["store"] == false)
    }

    @Test func storedSendsThemOnceThenChainsAgain() throws {
        var conversation = Conversation(sessionID: "s", mode: .stored)
        conversation.record(input: "first", response: answer("resp_1"))
        #expect(try conversation.compactionBody(model: "m", instructions: nil)?["previous_response_id"] == "resp_1")
        conversation.continueFrom(compacted: compacted)
        #expect(conversation.previousResponseID == nil)
        // Compacting again before the next turn compacts the compacted items.
        #expect(try conversation.compactionBody(model: "m", instructions: nil)?["input"] == .array(compacted))
        var request = CreateResponseRequest(model: "m", input: "")
        conversation.apply(to: &request, input: "second")
        #expect(request.body["input"] == .array(compacted + [["role": "user", "content": "second"]]))
        conversation.record(input: "second", response: answer("resp_2"))
        var next = CreateResponseRequest(model: "m", input: "")
        conversation.apply(to: &next, input: "third")
        #expect(next.body["input"] == "third")
        #expect(conversation.previousResponseID == "resp_2")
    }

    @Test func aConversationsAPIConversationIsNotCompactedHere() {
        let conversation = Conversation(sessionID: "s", mode: .conversation)
        #expect(throws: SettingError.self) { try conversation.compactionBody(model: "m", instructions: nil) }
    }
}
