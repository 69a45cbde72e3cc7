import Foundation

/// Vector stores: the stores, their files, file batches and search.
extension ResponsesClient {
    public func createVectorStore(_ body: JSONObject, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> JSONValue
    {
        try await json("POST", "/vector_stores", body, context: context)
    }

    public func listVectorStores(page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> Page<JSONValue>
    {
        Page(json: try await json("GET", Self.path("/vector_stores", query: page.query), context: context))
    }

    public func allVectorStores(pageSize: Int = 100, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> [JSONValue]
    {
        try await collectPages(pageSize: pageSize) { page throws(ResponsesAPIError) in
            try await listVectorStores(page: page, context: context)
        }
    }

    public func vectorStore(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> JSONValue
    {
        try await json("GET", Self.path("/vector_stores", id), context: context)
    }

    public func updateVectorStore(id: String, _ body: JSONObject, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> JSONValue
    {
        try await json("POST", Self.path("/vector_stores", id), body, context: context)
    }

    public func deleteVectorStore(id: String, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> Deletion
    {
        Deletion(json: try await json("DELETE", Self.path("/vector_stores", id), context: context))
    }

    public func vectorStoreFiles(
        storeID: String, status: String? = nil, page: PageRequest = PageRequest(),
        context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        let query = (status.map { [("filter", $0)] } ?? []) + page.query
        return Page(
            json: try await json("GET", Self.path("/vector_stores", storeID, "files", query: query), context: context))
    }

    public func allVectorStoreFiles(
        storeID: String, status: String? = nil, pageSize: Int = 100, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [JSONValue] {
        try await collectPages(pageSize: pageSize) { page throws(ResponsesAPIError) in
            try await vectorStoreFiles(storeID: storeID, status: status, page: page, context: context)
        }
    }

    public func addVectorStoreFile(
        storeID: String, fileID: String, attributes: JSONObject = [:], chunkingStrategy: JSONValue? = nil,
        context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> JSONValue {
        var body: JSONObject = ["file_id": .string(fileID)]
        if !attributes.isEmpty { body["attributes"] = .object(attributes) }
        if let chunkingStrategy { body["chunking_strategy"] = chunkingStrategy }
        return try await json("POST", Self.path("/vector_stores", storeID, "files"), body, context: context)
    }

    public func vectorStoreFile(storeID: String, fileID: String, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> JSONValue
    {
        try await json("GET", Self.path("/vector_stores", storeID, "files", fileID), context: context)
    }

    public func removeVectorStoreFile(storeID: String, fileID: String, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> Deletion
    {
        Deletion(
            json: try await json("DELETE", Self.path("/vector_stores", storeID, "files", fileID), context: context))
    }

    public func createFileBatch(
        storeID: String, fileIDs: [String], attributes: JSONObject = [:], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> JSONValue {
        var body: JSONObject = ["file_ids": .array(fileIDs.map(JSONValue.string))]
        if !attributes.isEmpty { body["attributes"] = .object(attributes) }
        return try await json("POST", Self.path("/vector_stores", storeID, "file_batches"), body, context: context)
    }

    public func fileBatch(storeID: String, batchID: String, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> JSONValue
    {
        try await json("GET", Self.path("/vector_stores", storeID, "file_batches", batchID), context: context)
    }

    public func allFileBatchFiles(
        storeID: String, batchID: String, status: String? = nil, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [JSONValue] {
        try await collectPages(pageSize: 100) { page throws(ResponsesAPIError) in
            let query = (status.map { [("filter", $0)] } ?? []) + page.query
            return Page(
                json: try await json(
                    "GET", Self.path("/vector_stores", storeID, "file_batches", batchID, "files", query: query),
                    context: context))
        }
    }

    /// `POST /vector_stores/{id}/search`: the matches (`data`) with their scores and content.
    public func searchVectorStore(
        storeID: String, query: String, maxResults: Int? = nil, filters: JSONValue? = nil, rewriteQuery: Bool = false,
        context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [JSONValue] {
        var body: JSONObject = ["query": .string(query)]
        if let maxResults { body["max_num_results"] = .integer(maxResults) }
        if let filters { body["filters"] = filters }
        if rewriteQuery { body["rewrite_query"] = true }
        let answer = try await json("POST", Self.path("/vector_stores", storeID, "search"), body, context: context)
        return answer["data"]?.arrayValue ?? []
    }
}
