/// One model a server serves, as `GET /models` lists it.
public struct ModelObject: Sendable, Hashable {
    public var id: String
    /// Who owns it (`openai`, `system`, an organization), when the server says.
    public var ownedBy: String?
    /// When it was created (Unix seconds), when the server says.
    public var created: Int?

    public init(id: String, ownedBy: String? = nil, created: Int? = nil) {
        self.id = id
        self.ownedBy = ownedBy
        self.created = created
    }
}

extension ResponsesClient {
    /// `GET /models`: the models the server serves (its `data` list; an entry without an `id` is skipped).
    public func listModels(context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> [ModelObject]
    {
        let (json, _) = try await send(method: "GET", path: "/models", context: context)
        guard let data = json["data"]?.arrayValue else {
            throw ResponsesAPIError(code: .decoding, message: "the model list has no 'data' list")
        }
        return data.compactMap { entry in
            entry["id"]?.stringValue.map {
                ModelObject(id: $0, ownedBy: entry["owned_by"]?.stringValue, created: entry["created"]?.intValue)
            }
        }
    }
}
