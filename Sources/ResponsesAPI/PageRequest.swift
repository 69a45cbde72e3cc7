/// Which page to ask for: `limit`, `after` (the last id of the previous page), `order`, `include`.
public struct PageRequest: Sendable, Hashable {
    public var limit: Int?
    public var after: String?
    /// `asc` or `desc`.
    public var order: String?
    public var include: [String]

    public init(limit: Int? = nil, after: String? = nil, order: String? = nil, include: [String] = []) {
        self.limit = limit
        self.after = after
        self.order = order
        self.include = include
    }

    var query: [(String, String)] {
        var query: [(String, String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let after { query.append(("after", after)) }
        if let order { query.append(("order", order)) }
        for value in include { query.append(("include[]", value)) }
        return query
    }
}
