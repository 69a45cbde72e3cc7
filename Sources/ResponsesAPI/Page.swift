/// One page of a cursor-paginated list (`{"object":"list","data":[...],"first_id","last_id","has_more"}`).
public struct Page<Element: Sendable>: Sendable {
    public var data: [Element]
    public var firstID: String?
    public var lastID: String?
    public var hasMore: Bool
    /// The whole page as it arrived.
    public var json: JSONValue
}

extension Page where Element == JSONValue {
    public init(json: JSONValue) {
        let data = json["data"]?.arrayValue ?? []
        self.init(
            data: data, firstID: json["first_id"]?.stringValue ?? data.first?["id"]?.stringValue,
            lastID: json["last_id"]?.stringValue ?? data.last?["id"]?.stringValue,
            hasMore: json["has_more"]?.boolValue ?? false, json: json)
    }
}
