/// One way a JSON value breaks a JSON Schema: where (a JSON path from `$`, such as `$.items[2].age`) and what
/// (`expected integer, got string "x"`).
public struct SchemaViolation: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }

    /// `parent`'s member `key`: `.key` when it reads as a name, else `["key"]` as JSON writes the string.
    static func path(_ parent: String, key: String) -> String {
        let isName =
            key.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
            && key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        if isName { return "\(parent).\(key)" }
        var quoted = "\""
        for character in key {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            default: quoted.append(character)
            }
        }
        return "\(parent)[\(quoted)\"]"
    }
}
