import ResponsesAPI
import Testing
import Workbench

/// A response that does not echo the `previous_response_id` or `conversation` its request sent.
@Suite("Noticing a server that drops the conversation")
struct ContinuityNoticeTests {
    func request(_ fields: JSONObject) -> CreateResponseRequest {
        var request = CreateResponseRequest(model: "m", input: "hi")
        for (key, value) in fields { request.body[key] = value }
        return request
    }

    func response(_ json: JSONValue) -> Response { Response(json: json) }

    @Test func anEchoedPreviousResponseIDIsFine() {
        #expect(
            Conversation.continuityNotice(
                request: request(["previous_response_id": "resp_1"]),
                response: response(["id": "resp_2", "previous_response_id": "resp_1"])) == nil)
    }

    @Test func anotherOrMissingPreviousResponseIDIsNoticed() {
        let other = Conversation.continuityNotice(
            request: request(["previous_response_id": "resp_1"]),
            response: response(["id": "resp_2", "previous_response_id": "chatcmpl-77"]))
        #expect(
            other
                == "the server did not continue from resp_1 (its response names chatcmpl-77 instead), so this answer may not know the earlier turns; /mode stateless sends the history with every request"
        )
        let missing = Conversation.continuityNotice(
            request: request(["previous_response_id": "resp_1"]), response: response(["id": "resp_2"]))
        #expect(
            missing
                == "the server's response does not confirm that it continued from resp_1 (it names no previous_response_id); if answers forget earlier turns, /mode stateless sends the history with every request"
        )
    }

    @Test func aConversationIsCheckedAsAStringOrAnObject() {
        #expect(
            Conversation.continuityNotice(
                request: request(["conversation": "conv_1"]), response: response(["conversation": ["id": "conv_1"]]))
                == nil)
        let dropped = Conversation.continuityNotice(
            request: request(["conversation": "conv_1"]), response: response(["id": "r"]))
        #expect(
            dropped?.hasPrefix(
                "the server's response does not confirm that it answered in conversation conv_1 (it names none)")
                == true)
        let other = Conversation.continuityNotice(
            request: request(["conversation": ["id": "conv_1"]]), response: response(["conversation": ["id": "conv_2"]])
        )
        #expect(
            other?.hasPrefix("the server did not answer in conversation conv_1 (its response names conv_2)") == true)
    }

    @Test func aFirstTurnIsNeverNoticed() {
        #expect(
            Conversation.continuityNotice(
                request: request([:]), response: response(["id": "r", "previous_response_id": "x"])) == nil)
    }

    @Test func longIDsAreShortenedToKeepTheNoticeOnOneLine() {
        let long = "resp_" + String(repeating: "x", count: 400)
        let notice = Conversation.continuityNotice(
            request: request(["previous_response_id": .string(long)]),
            response: response(["previous_response_id": "chatcmpl-1"]))
        #expect(
            notice?.hasPrefix(
                "the server did not continue from resp_\(String(repeating: "x", count: 27))… (its response names chatcmpl-1 instead)"
            ) == true)
    }
}
