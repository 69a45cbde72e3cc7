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
        #expect(Conversation.continuityNotice(
            request: request(["previous_response_id": "resp_1"]),
            response: response(["id": "resp_2", "previous_response_id": "resp_1"])) == nil)
    }

    @Test func anotherOrMissingPreviousResponseIDIsNoticed() {
        let other = Conversation.continuityNotice(
            request: request(["previous_response_id": "resp_1"]),
            response: response(["id": "resp_2", "previous_response_id": "chatcmpl-77"]))
        #expect(other == "the server did not continue from resp_1 (its response names chatcmpl-77 instead), so this answer may not know the earlier turns; /mode stateless sends the history with every request")
        let missing = Conversation.continuityNotice(
            request: request(["previous_response_id": "resp_1"]), response: response(["id": "resp_2"]))
        #expect(missing?.hasPrefix("the server did not continue from resp_1 (its response does not name it)") == true)
    }

    @Test func aConversationIsCheckedAsAStringOrAnObject() {
        #expect(Conversation.continuityNotice(
            request: request(["conversation": "conv_1"]), response: response(["conversation": ["id": "conv_1"]])) == nil)
        let dropped = Conversation.continuityNotice(request: request(["conversation": "conv_1"]), response: response(["id": "r"]))
        #expect(dropped?.hasPrefix("the server did not answer in conversation conv_1 (its response names no conversation)") == true)
    }

    @Test func aFirstTurnIsNeverNoticed() {
        #expect(Conversation.continuityNotice(request: request([:]), response: response(["id": "r", "previous_response_id": "x"])) == nil)
    }
}
