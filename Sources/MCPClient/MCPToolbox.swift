import Logging
import MCP
import ResponsesAPI
import Workbench

/// The session's local MCP servers (`ChatSession.toolSource`): those declared in config.yaml and the preset,
/// which of them are on, and the function names their tools go by. A server is started on the first request
/// that offers its tools, and kept running for the session (`shutdown()` stops them all).
public actor MCPToolbox: ToolSource {
    /// Declared servers, in the order they were declared.
    public nonisolated let servers: [MCPServerConfig]
    private let connections: [String: MCPServerConnection]
    private var enabled: Set<String>
    /// Function name → (server, tool), for the names offered so far.
    private var targets: [String: (server: String, tool: String)] = [:]
    /// (server, tool) → function name.
    private var names: [String: String] = [:]
    /// The servers whose left-out tools were said, and what is still to be said.
    private var reportedLeftOut: Set<String> = []
    private var pendingNotes: [String] = []

    public init(
        servers: [MCPServerConfig], enabled: Set<String>, baseEnvironment: [String: String],
        variables: [String: String], logger: Logger = Logger(label: "openresponses.mcp")
    ) {
        self.servers = servers
        var connections: [String: MCPServerConnection] = [:]
        for server in servers {
            connections[server.name] = MCPServerConnection(
                config: server, baseEnvironment: baseEnvironment, variables: variables, logger: logger)
        }
        self.connections = connections
        self.enabled = enabled.union(servers.filter(\.enabledByDefault).map(\.name))
    }

    public var enabledServers: [String] { servers.map(\.name).filter { enabled.contains($0) } }

    /// Turns a server on or off for the next requests (`/mcp on|off NAME`). A server turned off keeps running.
    public func set(_ name: String, enabled on: Bool) throws(MCPServerError) {
        _ = try connection(name)
        if on { enabled.insert(name) } else { enabled.remove(name) }
    }

    /// What `/mcp` and `mcp list` show of each declared server.
    public struct ServerStatus: Sendable {
        public var config: MCPServerConfig
        public var enabled: Bool
        public var state: MCPServerConnection.State
        public var startDuration: Duration?
    }

    public func status() async -> [ServerStatus] {
        var result: [ServerStatus] = []
        for server in servers {
            let connection = connections[server.name]!
            result.append(
                ServerStatus(
                    config: server, enabled: enabled.contains(server.name), state: await connection.state,
                    startDuration: await connection.startDuration))
        }
        return result
    }

    /// The tools of `server` offered to the model (started if need be; `vetted`), with the function names the
    /// model sees them by. What was left out is said once per session, in `notes`.
    public func tools(of server: String) async throws(MCPServerError) -> [(name: String, tool: Tool)] {
        let (tools, leftOut) = Self.vetted(try await connection(server).start(), server: server)
        if !leftOut.isEmpty, reportedLeftOut.insert(server).inserted {
            pendingNotes.append("MCP server \(server): left out \(leftOut.joined(separator: "; "))")
        }
        return zip(assignNames(server: server, tools: tools.map(\.name)), tools).map { ($0, $1) }
    }

    /// Notes not yet said (what a server's tool list lost in vetting).
    public func takeNotes() -> [String] {
        defer { pendingNotes = [] }
        return pendingNotes
    }

    /// Runs `tool` of `server` directly (`mcp call`), with no approval.
    public func call(server: String, tool: String, arguments: String) async throws(MCPServerError) -> ToolCallOutcome {
        let connection = try connection(server)
        guard let parsed = MCPToolOutput.arguments(arguments) else {
            throw MCPServerError(.configuration, server: server, "the arguments are not a JSON object: \(arguments)")
        }
        let began = ContinuousClock.now
        let result = try await connection.call(tool, arguments: parsed)
        return MCPToolOutput.outcome(result, duration: ContinuousClock.now - began)
    }

    /// Restarts a server that failed (`/mcp restart NAME`): stopped, its failures forgotten.
    public func restart(_ name: String) async throws(MCPServerError) {
        try await connection(name).reset()
    }

    /// Stops every server this toolbox started.
    public func shutdown() async {
        for connection in connections.values { await connection.stop() }
    }

    // MARK: ToolSource

    public func offeredTools() async -> (tools: [JSONValue], notes: [String]) {
        var definitions: [JSONValue] = []
        var notes: [String] = []
        for server in enabledServers {
            do {
                for (name, tool) in try await tools(of: server) {
                    definitions.append(MCPToolOutput.definition(name: name, tool: tool, server: server))
                }
            } catch {
                notes.append("MCP server \(server) is left out of this request: \(error.description)")
            }
        }
        return (definitions, takeNotes() + notes)
    }

    public func plan(for name: String) async -> (server: String, tool: String, trusted: Bool)? {
        guard let target = targets[name], let config = connections[target.server]?.config else { return nil }
        return (target.server, target.tool, config.isTrusted(target.tool))
    }

    public func call(_ plan: ToolCallPlan, arguments: String) async -> ToolCallOutcome {
        let began = ContinuousClock.now
        do {
            return try await call(server: plan.server, tool: plan.tool, arguments: arguments)
        } catch {
            // The model is told what failed; the server's stderr is for the user (and the log), not the provider.
            return ToolCallOutcome(
                output: .string("error: \(error.message)"), ending: .failed(error.description),
                duration: ContinuousClock.now - began)
        }
    }

    // MARK: -

    private func connection(_ name: String) throws(MCPServerError) -> MCPServerConnection {
        guard let connection = connections[name] else {
            let known = servers.map(\.name).joined(separator: ", ")
            throw MCPServerError(
                .unknown, server: name,
                "no MCP server is named '\(name)' (declared: \(known.isEmpty ? "none; see mcp_servers: in Docs/mcp.md" : known))"
            )
        }
        return connection
    }

    /// The function names of `tools` of `server`: those given before kept, new ones made unique.
    private func assignNames(server: String, tools: [String]) -> [String] {
        let fresh = tools.filter { names[server + "\u{0}" + $0] == nil }
        let made = MCPToolName.assign(server: server, tools: fresh, taken: Set(targets.keys))
        for (tool, name) in zip(fresh, made) {
            names[server + "\u{0}" + tool] = name
            targets[name] = (server, tool)
        }
        return tools.map { names[server + "\u{0}" + $0]! }
    }
}
