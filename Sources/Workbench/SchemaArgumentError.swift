/// Why `ask --schema ARGUMENT` cannot be used: the concise form is wrong, or the file cannot be read or is
/// not a JSON Schema. Each message starts with `--schema` and names the field or the file's place.
public enum SchemaArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    case concise(ConciseSchemaError)
    case unreadable(path: String, reason: String)
    /// JSON that does not parse, at its line and column.
    case invalidJSON(SourceLocation, String)
    /// JSON that is not a mapping.
    case notASchema(path: String, found: String)

    public var description: String {
        switch self {
        case .concise(let error): "\(error)"
        case .unreadable(let path, let reason): "--schema \(path): \(reason)"
        case .invalidJSON(let location, let message): "--schema \(location): invalid JSON: \(message)"
        case .notASchema(let path, let found): "--schema \(path): holds \(found), not a JSON Schema (a mapping)"
        }
    }
}
