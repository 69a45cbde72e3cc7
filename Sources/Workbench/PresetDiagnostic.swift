/// One problem in a preset or config file: where it is, which key, and what is wrong.
/// Printed as `path:line:column: key.path: message`.
public struct PresetDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    /// The key path from the document's root (`reasoning.effort`, `tools[1].server_url`); empty for the
    /// document itself.
    public var keyPath: String
    public var message: String

    public init(location: SourceLocation, keyPath: String, message: String) {
        self.location = location
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}
