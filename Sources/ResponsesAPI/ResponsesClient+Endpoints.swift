import Foundation

extension ResponsesClient {
    // MARK: - Responses

    /// `GET /responses/{id}`.
    public func retrieve(
        id: String, include: [String] = [], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Response {
        let query = include.map { ("include[]", $0) }
        let (json, _) = try await send(method: "GET", path: Self.path("/responses", id, query: query), context: context)
        return Response(json: json)
    }

    /// `GET /responses/{id}?stream=true&starting_after=N`: the events of a stored (typically background)
    /// response, from the one after sequence number `startingAfter` (from the start when nil).
    public func resume(
        id: String, startingAfter: Int? = nil, context: ExchangeContext = ExchangeContext(),
        onHead: (@Sendable (ResponseMetadata) -> Void)? = nil
    ) -> AsyncThrowingStream<ResponseStreamEvent, any Error> {
        eventStream(
            method: "GET", path: Self.resumePath(id: id, startingAfter: startingAfter), body: nil, context: context,
            onHead: onHead)
    }

    /// `resume` as the batches of each network read (`streamBatches`), for a turn that goes on rendering.
    public func resumeBatches(
        id: String, startingAfter: Int?, context: ExchangeContext = ExchangeContext(),
        repeatedText: RepeatedText = .decoded
    ) -> AsyncThrowingStream<[ResponseStreamEvent], any Error> {
        eventBatches(
            method: "GET", path: Self.resumePath(id: id, startingAfter: startingAfter), body: nil, context: context,
            repeatedText: repeatedText)
    }

    static func resumePath(id: String, startingAfter: Int?) -> String {
        var query = [("stream", "true")]
        if let startingAfter { query.append(("starting_after", String(startingAfter))) }
        return path("/responses", id, query: query)
    }

    /// `DELETE /responses/{id}`.
    public func delete(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> Deletion
    {
        let (json, _) = try await send(method: "DELETE", path: Self.path("/responses", id), context: context)
        return Deletion(json: json)
    }

    /// `POST /responses/{id}/cancel`: cancels a background response; returns it (status `cancelled`).
    public func cancel(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> Response
    {
        let (json, _) = try await send(method: "POST", path: Self.path("/responses", id, "cancel"), context: context)
        return Response(json: json)
    }

    /// `GET /responses/{id}/input_items`: one page.
    public func inputItems(
        responseID: String, page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        let (json, _) = try await send(
            method: "GET", path: Self.path("/responses", responseID, "input_items", query: page.query), context: context
        )
        return Page(json: json)
    }

    /// Every input item of a response, following `has_more` / `after` across pages.
    public func allInputItems(
        responseID: String, pageSize: Int = 100, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [JSONValue] {
        try await collectPages(pageSize: pageSize) { page throws(ResponsesAPIError) in
            try await inputItems(responseID: responseID, page: page, context: context)
        }
    }

    /// The fields of a create request that `POST /responses/input_tokens` takes (the spec's
    /// `TokenCountsBody`); the others (sampling, output limits, storage, metadata) change no input token and
    /// are not sent.
    public static let tokenCountFields: Set<String> = [
        "model", "input", "previous_response_id", "tools", "text", "reasoning", "truncation", "instructions",
        "personality", "conversation", "tool_choice", "parallel_tool_calls",
    ]

    /// `POST /responses/input_tokens`: how many input tokens `request` would use (its model, input,
    /// instructions, tools... as `tokenCountFields` lists).
    public func countInputTokens(
        _ request: CreateResponseRequest, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Int {
        let body = JSONObject(request.body.filter { Self.tokenCountFields.contains($0.key) }.map { ($0.key, $0.value) })
        let (json, _) = try await send(
            method: "POST", path: "/responses/input_tokens", body: JSONValue.object(body).serialized(), context: context
        )
        guard let count = json["input_tokens"]?.intValue else {
            throw ResponsesAPIError(code: .decoding, message: "the input token count has no 'input_tokens' number")
        }
        return count
    }

    /// `POST /responses/compact`: compacts a conversation (`model` plus `input` or `previous_response_id`);
    /// returns the compacted response, whose `output` is the new, shorter input.
    public func compact(
        _ body: JSONObject, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Response {
        let (json, _) = try await send(
            method: "POST", path: "/responses/compact", body: JSONValue.object(body).serialized(), context: context)
        return Response(json: json)
    }

    // MARK: - Conversations

    /// `POST /conversations` with optional initial `items` and `metadata`.
    public func createConversation(
        items: [JSONValue] = [], metadata: [String: String] = [:], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> ConversationObject {
        var body = JSONObject()
        if !items.isEmpty { body["items"] = .array(items) }
        if !metadata.isEmpty { body["metadata"] = Self.metadataJSON(metadata) }
        let (json, _) = try await send(
            method: "POST", path: "/conversations", body: JSONValue.object(body).serialized(), context: context)
        return ConversationObject(json: json)
    }

    /// `GET /conversations/{id}`.
    public func conversation(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> ConversationObject
    {
        let (json, _) = try await send(method: "GET", path: Self.path("/conversations", id), context: context)
        return ConversationObject(json: json)
    }

    /// `POST /conversations/{id}`: replaces the metadata.
    public func updateConversation(
        id: String, metadata: [String: String], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> ConversationObject {
        let body: JSONValue = ["metadata": Self.metadataJSON(metadata)]
        let (json, _) = try await send(
            method: "POST", path: Self.path("/conversations", id), body: body.serialized(), context: context)
        return ConversationObject(json: json)
    }

    /// `DELETE /conversations/{id}`.
    public func deleteConversation(id: String, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> Deletion
    {
        let (json, _) = try await send(method: "DELETE", path: Self.path("/conversations", id), context: context)
        return Deletion(json: json)
    }

    /// `GET /conversations/{id}/items`: one page.
    public func conversationItems(
        conversationID: String, page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        let (json, _) = try await send(
            method: "GET", path: Self.path("/conversations", conversationID, "items", query: page.query),
            context: context)
        return Page(json: json)
    }

    /// `POST /conversations/{id}/items`: adds items; returns the page of added items.
    public func addConversationItems(
        conversationID: String, items: [JSONValue], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        let body: JSONValue = ["items": .array(items)]
        let (json, _) = try await send(
            method: "POST", path: Self.path("/conversations", conversationID, "items"), body: body.serialized(),
            context: context)
        return Page(json: json)
    }

    /// `GET /conversations/{id}/items/{item_id}`.
    public func conversationItem(
        conversationID: String, itemID: String, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> JSONValue {
        try await send(
            method: "GET", path: Self.path("/conversations", conversationID, "items", itemID), context: context
        ).0
    }

    /// `DELETE /conversations/{id}/items/{item_id}`: returns the conversation.
    public func deleteConversationItem(
        conversationID: String, itemID: String, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> ConversationObject {
        let (json, _) = try await send(
            method: "DELETE", path: Self.path("/conversations", conversationID, "items", itemID), context: context)
        return ConversationObject(json: json)
    }

    // MARK: - Helpers

    /// Follows a cursor-paginated list to its end.
    func collectPages<Element>(
        pageSize: Int, _ fetch: (PageRequest) async throws(ResponsesAPIError) -> Page<Element>
    ) async throws(ResponsesAPIError) -> [Element] {
        var request = PageRequest(limit: pageSize)
        var all: [Element] = []
        while true {
            let page = try await fetch(request)
            all.append(contentsOf: page.data)
            guard page.hasMore, let last = page.lastID, last != request.after else { return all }
            request.after = last
        }
    }

    /// `base/segment/...?query`, each segment percent-encoded.
    static func path(_ base: String, _ segments: String..., query: [(String, String)] = []) -> String {
        var path = base
        for segment in segments {
            path += "/" + (segment.addingPercentEncoding(withAllowedCharacters: .urlPathSegmentAllowed) ?? segment)
        }
        if !query.isEmpty {
            path += "?" + query.map { "\(Self.encodeQuery($0.0))=\(Self.encodeQuery($0.1))" }.joined(separator: "&")
        }
        return path
    }

    static func encodeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? text
    }

    static func metadataJSON(_ metadata: [String: String]) -> JSONValue {
        .object(JSONObject(metadata.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
    }
}

extension CharacterSet {
    static let urlPathSegmentAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove("/")
        return set
    }()

    static let urlQueryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+?#")
        return set
    }()
}
