import Foundation
import ResponsesAPI

extension ChatSession {
    /// `ask --detach`: the turn's request, created in the background (`background: true`, stored, not
    /// streamed), returned as soon as the server has accepted it (queued or in progress). The exchange is
    /// recorded and the response goes into the ledger like any other, so `jobs`, `jobs wait`, `attach` and
    /// `cancel` find it by its id. A request that says `store: false` cannot be detached (nothing could
    /// find it again): that is refused before anything is sent. Tools of local MCP servers are not offered
    /// to it: no console is there to run them.
    public mutating func submitInBackground(_ input: JSONValue) async throws(ResponsesAPIError) -> Response {
        // Local MCP servers are not offered: nothing would be there to run their tools for it.
        let settings = self.settings
        var request: CreateResponseRequest
        do {
            request =
                try PayloadBuilder().compose(
                    settings: settings, conversation: conversation, input: settings.templated(input),
                    for: .send(environment)
                ).request
        } catch {
            throw ResponsesAPIError(code: .configuration, message: error.message)
        }
        guard request.body["store"]?.boolValue != false else {
            throw ResponsesAPIError(
                code: .configuration,
                message: "--detach needs a stored response (store is false): nothing could follow it afterwards")
        }
        request.body["background"] = true
        let response = try await client.create(request, context: exchangeContext(settings))
        guard !response.id.isEmpty else {
            throw ResponsesAPIError(code: .decoding, message: "the server accepted the request but gave no response id")
        }
        conversation.record(input: input, response: response)
        return response
    }
}
