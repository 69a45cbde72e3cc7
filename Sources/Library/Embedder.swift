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
    /// `server`: a named provider (`openai:MODEL@NAME`); nil for the one the command talks to.
    case provider(model: String, dimensions: Int?, server: String? = nil)
    case none

    public static let help = "minilm (built in), openai:MODEL[/DIMENSIONS][@PROVIDER] (a server's /embeddings), or none"

    public init(parsing text: String) throws(LibraryServiceError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "minilm", "all-minilm-l6-v2": self = .minilm
        case "none", "off": self = .none
        default:
            guard trimmed.lowercased().hasPrefix("openai:") else {
                throw LibraryServiceError("unknown embedder \"\(text)\": expected \(Self.help)", exitStatus: .usage)
            }
            var model = String(trimmed.dropFirst("openai:".count))
            var server: String?
            if let at = model.lastIndex(of: "@") {
                let name = String(model[model.index(after: at)...])
                guard !name.isEmpty,
                    name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
                else {
                    throw LibraryServiceError(
                        "embedder \"\(text)\": after @ comes a provider's name (openai:MODEL@NAME)", exitStatus: .usage)
                }
                server = name
                model = String(model[..<at])
            }
            var dimensions: Int?
            if let slash = model.lastIndex(of: "/"), let number = Int(model[model.index(after: slash)...]) {
                guard number > 0 else {
                    throw LibraryServiceError("embedder \"\(text)\": dimensions must be positive", exitStatus: .usage)
                }
                dimensions = number
                model = String(model[..<slash])
            }
            guard !model.isEmpty else {
                throw LibraryServiceError("embedder \"\(text)\" names no model (openai:MODEL)", exitStatus: .usage)
            }
            self = .provider(model: model, dimensions: dimensions, server: server)
        }
    }

    /// The name vectors are kept under: `minilm`, `openai:MODEL`, `openai:MODEL/DIMENSIONS`, `…@PROVIDER`.
    public var description: String {
        switch self {
        case .minilm: "minilm"
        case .provider(let model, let dimensions, let server):
            "openai:\(model)" + (dimensions.map { "/\($0)" } ?? "") + (server.map { "@\($0)" } ?? "")
        case .none: "none"
        }
    }

    /// The named provider whose `/embeddings` this embedder uses, when it names one.
    public var server: String? {
        if case .provider(_, _, let server) = self { return server }
        return nil
    }
}
