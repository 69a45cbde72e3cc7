/// The answer to a DELETE: `{"id", "object", "deleted"}`.
public struct Deletion: Sendable, Hashable {
    public var id: String
    public var deleted: Bool
    public var json: JSONValue

    public init(json: JSONValue) {
        self.json = json
        id = json["id"]?.stringValue ?? ""
        // Some servers answer a DELETE with an empty object or null: the 2xx status is the answer.
        deleted = json["deleted"]?.boolValue ?? true
    }
}
