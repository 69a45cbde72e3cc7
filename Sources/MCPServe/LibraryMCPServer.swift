import Foundation
import Inspector
import Library
import Logging
import MCP
import ResponsesAPI

/// `openresponses mcp serve`: the local library (and, read-only, the inspector) as an MCP server any agent can
/// use — `library_search`, `library_ask`, `library_list`, `inspect_list`, `inspect_show`, each document as a
/// resource, and `library_add` only when writing is allowed. The official SDK's `Server` speaks the protocol;
/// what each tool does is here, over the same services the console uses (Docs/mcp.md).
public struct LibraryMCPServer: Sendable {
    /// What the server may open. The front end decides where the library and the inspector are and how they are
    /// opened (a damaged store moved aside, said on stderr); this server only asks.
    public struct Access: Sendable {
        public var library: @Sendable () throws -> LibraryService
        /// Nil: the inspector's tools are not offered (no store yet).
        public var inspector: (@Sendable () throws -> InspectorStore)?
        /// `--allow-write`: adds the files at these paths, and says what happened; nil: `library_add` is not
        /// offered.
        public var add: (@Sendable ([String]) async throws -> String)?

        public init(
            library: @escaping @Sendable () throws -> LibraryService,
            inspector: (@Sendable () throws -> InspectorStore)?, add: (@Sendable ([String]) async throws -> String)?
        ) {
            self.library = library
            self.inspector = inspector
            self.add = add
        }
    }

    let access: Access
    let version: String
    let logger: Logger

    public init(access: Access, version: String, logger: Logger = Logger(label: "openresponses.mcp.serve")) {
        self.access = access
        self.version = version
        self.logger = logger
    }

    /// Serves on this process's stdin and stdout until the client goes away.
    public func runOverStandardIO() async throws {
        // The SDK says "EOF received" and the like at notice: the client going away is no news.
        var quiet = logger
        quiet.logLevel = .error
        try await run(on: StdioTransport(logger: quiet))
    }

    /// Serves on `transport` until the client goes away.
    public func run(on transport: any Transport) async throws {
        let server = Server(
            name: "openresponses", version: version,
            instructions:
                "The user's local document library (PDF, DOCX, HTML, text, images with OCR): search it, ask it for "
                + "an answer with citations (file and page), list its documents; and the user's recorded "
                + "Responses API exchanges, read-only.",
            capabilities: .init(
                resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        let tools = self.tools
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
        await server.withMethodHandler(CallTool.self) { params in
            await self.call(params.name, arguments: params.arguments ?? [:])
        }
        await server.withMethodHandler(ListResources.self) { _ in
            .init(resources: try await self.resources())
        }
        await server.withMethodHandler(ReadResource.self) { params in
            .init(contents: try await self.read(params.uri))
        }
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await server.stop()
    }

    /// A tool's reply: its text, or an error the client's model reads (`isError`).
    static func reply(_ text: String, isError: Bool = false) -> CallTool.Result {
        CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], isError: isError)
    }

    func call(_ name: String, arguments: [String: Value]) async -> CallTool.Result {
        do {
            switch name {
            case "library_search": return try await search(arguments)
            case "library_ask": return try await ask(arguments)
            case "library_list": return try await list()
            case "inspect_list" where access.inspector != nil: return try await inspectList(arguments)
            case "inspect_show" where access.inspector != nil: return try await inspectShow(arguments)
            case "library_add" where access.add != nil: return try await add(arguments)
            default: return Self.reply("no tool named \(name)", isError: true)
            }
        } catch let error as ToolArgumentError {
            return Self.reply(error.message, isError: true)
        } catch {
            logger.warning("tool failed", metadata: ["tool": "\(name)", "error": "\(error)"])
            return Self.reply(
                "\(name) failed: \((error as? any UserFacingError)?.userMessage ?? "\(error)")", isError: true)
        }
    }
}

/// A tool's arguments are wrong: said to the client, naming the argument.
struct ToolArgumentError: Error {
    var message: String
}
