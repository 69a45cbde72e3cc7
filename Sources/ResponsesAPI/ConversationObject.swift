/// A conversation object (`"object": "conversation"`).
public struct ConversationObject: Sendable, Hashable {
    public var json: JSONValue
    public init(json: JSONValue) { self.json = json }
    public var id: String { json["id"]?.stringValue ?? "" }
    public var createdAt: Int? { json["created_at"]?.intValue }
    public var metadata: [String: String] {
        var result: [String: String] = [:]
        for (key, value) in json["metadata"]?.objectValue ?? JSONObject() { result[key] = value.stringValue }
        return result
    }
}
