import Foundation
import Logging
import MCP
import Spawning

/// One declared server and its running client: started on first use (`start`), initialised, its tools listed;
/// each call bounded by the server's timeout. A server that exits or hangs is stopped and the call fails naming
/// it (with its last stderr lines); the next use starts it again, once. After a second failure it stays failed
/// until `reset()` (`/mcp restart NAME`).
public actor MCPServerConnection {
    public nonisolated let config: MCPServerConfig
    /// The environment a started server's own is added to (PATH, HOME, LANG: given by the front end).
    let baseEnvironment: [String: String]
    /// What `${NAME}` in an HTTP server's headers is looked up in (the user's environment).
    let variables: [String: String]
    let logger: Logger
    private var running: (client: Client, transport: any Transport, closure: @Sendable () -> MCPServerError?)?
    private var failures = 0
    private var lastFailure: MCPServerError?
    public private(set) var tools: [Tool] = []
    /// How long the last start took (spawn, initialise, list tools).
    public private(set) var startDuration: Duration?

    /// How long a start may take at least, whatever the server's timeout for a call.
    public static let minimumStartTimeout: Duration = .seconds(30)

    /// Pages of `tools/list` read at the most.
    static let maximumToolPages = 20

    /// Failures after which the server is not started again by itself.
    public static let failuresBeforeGivingUp = 2

    public init(
        config: MCPServerConfig, baseEnvironment: [String: String], variables: [String: String], logger: Logger
    ) {
        self.config = config
        self.baseEnvironment = baseEnvironment
        self.variables = variables
        self.logger = logger
    }

    /// What `/mcp` shows of it.
    public enum State: Sendable, Hashable {
        case notStarted
        case running(tools: Int)
        /// Failed; `willRestart` while it has a start left.
        case failed(String, willRestart: Bool)
    }

    public var state: State {
        if running != nil { return .running(tools: tools.count) }
        if let lastFailure {
            return .failed(lastFailure.message, willRestart: failures < Self.failuresBeforeGivingUp)
        }
        return .notStarted
    }

    /// Starts the server if it is not running, and returns its tools.
    @discardableResult
    public func start() async throws(MCPServerError) -> [Tool] {
        if running != nil { return tools }
        if failures >= Self.failuresBeforeGivingUp, let lastFailure {
            throw MCPServerError(
                lastFailure.kind, server: config.name,
                "the MCP server \(config.name) failed \(failures) times and is not started again (last: "
                    + "\(lastFailure.message)); `/mcp restart \(config.name)` tries again",
                stderrTail: lastFailure.stderrTail)
        }
        let began = ContinuousClock.now
        let (transport, closure) = try makeTransport()
        let client = Client(name: "openresponses", version: "1")
        running = (client, transport, closure)
        // A start may take longer than a call is allowed (a Python server imports its SDK first).
        let startTimeout = max(config.timeout, Self.minimumStartTimeout)
        // One deadline for the whole start: initialising, then the pages of tools (at most `maximumToolPages`,
        // ended early by a cursor that comes again: a server cannot keep the turn waiting page after page).
        let listed = try await bounded("starting", within: startTimeout) { () async throws -> [Tool] in
            _ = try await client.connect(transport: transport)
            var listed: [Tool] = []
            var cursor: String?
            var seen: Set<String> = []
            for _ in 0..<Self.maximumToolPages {
                let page = try await client.listTools(cursor: cursor)
                listed += page.tools
                guard let next = page.nextCursor, seen.insert(next).inserted else { break }
                cursor = next
            }
            return listed
        }
        tools = listed
        let took = ContinuousClock.now - began
        startDuration = took
        logger.debug(
            "MCP server started",
            metadata: ["mcp.server": "\(config.name)", "tools": "\(listed.count)", "took": "\(took)"])
        return listed
    }

    /// Runs `tool` with `arguments` (a JSON object), starting the server first if need be.
    public func call(_ tool: String, arguments: [String: Value]) async throws(MCPServerError) -> CallTool.Result {
        try await start()
        guard let client = running?.client else {
            throw MCPServerError(.exited, server: config.name, "the MCP server \(config.name) is not running")
        }
        return try await bounded("running \(tool)", within: config.timeout) {
            let (content, isError) = try await client.callTool(name: tool, arguments: arguments)
            return CallTool.Result(content: content, isError: isError)
        }
    }

    /// Stops the server (it is started again on next use).
    public func stop() async {
        guard let running else { return }
        self.running = nil
        await running.client.disconnect()
        await running.transport.disconnect()
    }

    /// Stops it and forgets its failures.
    public func reset() async {
        await stop()
        failures = 0
        lastFailure = nil
    }

    /// `work` within `timeout`, failing as soon as the server ends. On a failure of the server (not
    /// an error it answered with), it is stopped and the failure counted.
    private func bounded<T: Sendable>(
        _ what: String, within timeout: Duration, _ work: @escaping @Sendable () async throws -> T
    ) async throws(MCPServerError) -> T {
        guard let running else { throw MCPServerError(.exited, server: config.name, "not running") }
        let name = config.name
        let closure = running.closure
        let client = running.client
        let result: Result<T, MCPServerError> = await withTaskGroup(of: Result<T, MCPServerError>?.self) { group in
            group.addTask {
                do { return .success(try await work()) } catch { return .failure(Self.classify(error, server: name)) }
            }
            group.addTask {
                let deadline = ContinuousClock.now + timeout
                while ContinuousClock.now < deadline {
                    if let closed = closure() { return .failure(closed) }
                    do { try await Task.sleep(for: .milliseconds(20)) } catch {
                        // Cancelled: the turn was interrupted (or the work ended first, and this is not read).
                        return .failure(MCPServerError(.cancelled, server: name, "the call to \(name) was interrupted"))
                    }
                }
                return .failure(
                    MCPServerError(
                        .timeout, server: name, "the MCP server \(name) did not answer within \(timeout) (\(what))"))
            }
            var first: Result<T, MCPServerError>?
            while first == nil, let next = await group.next() { first = next }
            if case .failure(let error) = first, error.kind != .server {
                // The work's task may wait on a reply that will never come: stopping the client fails it.
                await client.disconnect()
            }
            group.cancelAll()
            return first ?? .failure(MCPServerError(.cancelled, server: name, "cancelled"))
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            if Task.isCancelled {
                await stop()
                throw MCPServerError(.cancelled, server: name, "the call to \(name) was interrupted")
            }
            if error.kind != .server {
                let tail = (running.transport as? ChildProcessTransport)?.stderrTail.lines ?? []
                let failure =
                    error.stderrTail.isEmpty && !tail.isEmpty
                    ? MCPServerError(error.kind, server: name, error.message, stderrTail: tail) : error
                failures += 1
                lastFailure = failure
                await stop()
                throw failure
            }
            throw error
        }
    }

    /// An error thrown by the SDK as this console's: a JSON-RPC error the server answered is `.server`.
    static func classify(_ error: any Error, server: String) -> MCPServerError {
        if let error = error as? MCPServerError { return error }
        if let error = error as? MCP.MCPError {
            switch error {
            case .connectionClosed, .transportError:
                return MCPServerError(.exited, server: server, "the MCP server \(server) closed the connection")
            default:
                return MCPServerError(.server, server: server, "the MCP server \(server) answered: \(error)")
            }
        }
        if error is CancellationError { return MCPServerError(.cancelled, server: server, "cancelled") }
        return MCPServerError(.protocolViolation, server: server, "the MCP server \(server): \(error)")
    }
}
