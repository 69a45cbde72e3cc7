/// Why a model could not be loaded or run: what went wrong and the file it concerns.
public struct EmbeddingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or folder) concerned, when there is one.
    public var path: String?
    public var message: String

    public init(path: String? = nil, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        guard let path else { return message }
        return "\(path): \(message)"
    }
}
