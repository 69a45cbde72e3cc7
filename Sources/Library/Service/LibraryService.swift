import Foundation
import ResponsesAPI

/// Where a server's embedder (`openai:MODEL[@PROVIDER]`) gets its client. The front end knows the
/// providers and records exchanges; the library only asks.
public protocol EmbeddingClients: Sendable {
    /// The client for the provider `server` names; nil: the command's own server.
    func client(for server: String?) async throws -> ResponsesClient
    /// Shuts down the clients made for this service (the caller's own is left open).
    func finish() async
}

/// The library as every front end uses it: which embedder runs (the built-in model found in one place, a
/// server's through an injected client), adding (extract, chunk and store, then embed), retrieval, and the
/// turns that carry passages (`LibraryService+Turns`). The console asks and renders; what happens is
/// decided here, so it is tested without a terminal (LibraryTests' `LibraryServiceTests`).
public struct LibraryService: Sendable {
    public let store: LibraryStore
    public let options: LibraryOptions
    /// Where all-MiniLM-L6-v2's files are: `library.model_dir`, else the data directory's models/.
    public let modelFolder: String
    /// The environment the extraction tools run with (their PATH).
    public let toolEnvironment: [String: String]
    let clients: (any EmbeddingClients)?

    public init(
        store: LibraryStore, options: LibraryOptions, dataDirectory: URL, toolEnvironment: [String: String] = [:],
        clients: (any EmbeddingClients)? = nil
    ) {
        self.store = store
        self.options = options
        self.modelFolder = options.modelFolder(dataDirectory: dataDirectory)
        self.toolEnvironment = toolEnvironment
        self.clients = clients
    }

    /// Opens (creating) the library at `path`; a damaged one is moved aside and said in `store.repaired`.
    public static func open(
        at path: String, options: LibraryOptions, dataDirectory: URL, toolEnvironment: [String: String] = [:],
        clients: (any EmbeddingClients)? = nil, now: Date = Date()
    ) throws(LibraryServiceError) -> LibraryService {
        do {
            let store = try LibraryStore.open(at: path, now: now)
            return LibraryService(
                store: store, options: options, dataDirectory: dataDirectory, toolEnvironment: toolEnvironment,
                clients: clients)
        } catch {
            throw LibraryServiceError("cannot open the library \(path): \(error)")
        }
    }

    /// Shuts down the clients made for a server's embedder.
    public func finish() async {
        await clients?.finish()
    }

    /// Whether all-MiniLM-L6-v2's weights are in `modelFolder`.
    public var modelInstalled: Bool {
        FileManager.default.fileExists(atPath: modelFolder + "/model.safetensors")
    }

    /// The words for the built-in model missing.
    public var modelMissing: String {
        "all-MiniLM-L6-v2 is not installed in \(modelFolder) (scripts/install-model.sh installs it)"
    }

    /// The embedder `spec` names, ready to run; nil for `none`.
    public func embedder(_ spec: EmbedderSpec) async throws(LibraryServiceError) -> (any Embedder)? {
        switch spec {
        case .none: return nil
        case .minilm:
            guard modelInstalled else { throw LibraryServiceError(modelMissing, exitStatus: .usage) }
            do { return try MiniLMEmbedder.shared(folder: modelFolder) } catch {
                throw LibraryServiceError(error.message, exitStatus: .usage)
            }
        case .provider(let model, let dimensions, let server):
            guard let clients else {
                throw LibraryServiceError(
                    "openai:\(model) needs the server's configuration (OPENAI_BASE_URL, OPENAI_API_KEY)",
                    exitStatus: .usage)
            }
            let client: ResponsesClient
            do { client = try await clients.client(for: server) } catch {
                throw LibraryServiceError((error as? any UserFacingError)?.userMessage ?? "\(error)")
            }
            return ProviderEmbedder(
                client: client, model: model, dimensions: dimensions, server: server,
                context: ExchangeContext(labels: ["source": "library"]))
        }
    }

    /// The embedder the library's vectors come from, when it names one.
    public func currentEmbedder() async throws -> EmbedderSpec? {
        try await store.embedder().flatMap { try? EmbedderSpec(parsing: $0) }
    }

    /// The embedder to add with: the one asked for (`library.embedder`), else the library's, else minilm.
    /// Asking for another than the library's vectors come from is an error that says how to switch.
    public func embedderForAdding() async throws -> EmbedderSpec {
        let current = try await currentEmbedder()
        guard let asked = options.embedder else { return current ?? .minilm }
        if let current, current != asked, asked != .none {
            throw LibraryServiceError(
                "the library's vectors come from \(current), not \(asked): openresponses library reembed --embedder \(asked) switches the whole library",
                exitStatus: .usage)
        }
        return asked
    }
}
