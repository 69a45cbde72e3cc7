import Foundation

/// What turns texts into vectors for the library: the built-in MiniLM model or a server's `/embeddings`.
/// `identifier` names the embedder and what shapes its vectors (model, and dimensions when asked for); the
/// library keeps vectors under it, and a query is embedded only by the embedder its chunks were.
public protocol Embedder: Sendable {
    var identifier: String { get }
    /// One vector per text, in order; unit length is not assumed (the ranking normalises).
    func embed(_ texts: [String]) async throws -> [[Float]]
}

/// An embedder as `--embedder` and `library.embedder` name it: `minilm`, `openai:MODEL` (a server's
/// `/embeddings`; `openai:MODEL/DIMENSIONS` asks for shortened vectors), or `none`.
public enum EmbedderSpec: Sendable, Hashable, CustomStringConvertible {
    case minilm
    case provider(model: String, dimensions: Int?)
    case none

    public static let help = "minilm (built in), openai:MODEL or openai:MODEL/DIMENSIONS (the server's /embeddings), or none"

    public init(parsing text: String) throws(LibraryError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "minilm", "all-minilm-l6-v2": self = .minilm
        case "none", "off": self = .none
        default:
            guard trimmed.lowercased().hasPrefix("openai:") else {
                throw LibraryError(path: "", "unknown embedder \"\(text)\": expected \(Self.help)")
            }
            var model = String(trimmed.dropFirst("openai:".count))
            var dimensions: Int?
            if let slash = model.lastIndex(of: "/"), let number = Int(model[model.index(after: slash)...]) {
                guard number > 0 else { throw LibraryError(path: "", "embedder \"\(text)\": dimensions must be positive") }
                dimensions = number
                model = String(model[..<slash])
            }
            guard !model.isEmpty else { throw LibraryError(path: "", "embedder \"\(text)\" names no model (openai:MODEL)") }
            self = .provider(model: model, dimensions: dimensions)
        }
    }

    /// The name vectors are kept under: `minilm`, `openai:MODEL`, `openai:MODEL/DIMENSIONS`.
    public var description: String {
        switch self {
        case .minilm: "minilm"
        case .provider(let model, let dimensions): "openai:\(model)" + (dimensions.map { "/\($0)" } ?? "")
        case .none: "none"
        }
    }
}
