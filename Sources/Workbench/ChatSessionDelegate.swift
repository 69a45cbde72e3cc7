import ResponsesAPI

/// What a `ChatSession` asks of its front end: approvals, and somewhere to say what happened. The console
/// asks at its prompt; `ask --yes` approves everything; tests approve or refuse as they need.
public protocol ChatSessionDelegate: Sendable {
    /// Whether to run a function's local handler (one not marked trusted) or allow an MCP call.
    func approve(_ request: ApprovalRequest) async -> Bool
    /// Something the user should see: tool activity and notes.
    func report(_ event: ChatSessionEvent)
}

/// A tool run the session needs a yes for.
public enum ApprovalRequest: Sendable, Hashable {
    case function(name: String, arguments: String)
    case mcp(server: String, name: String, arguments: String)
}

/// What happened during a turn besides the model's own output.
public enum ChatSessionEvent: Sendable, Hashable {
    /// A note about the request or the server (a capability adjustment, a conversation not kept).
    case note(String)
    case mcpApproved(server: String, name: String)
    case mcpDenied(server: String, name: String)
    /// The user declined to run a function's handler.
    case functionNotRun(name: String)
    case functionOutput(name: String, text: String)
    case functionFailed(name: String, message: String)
    /// The model called a function the settings do not declare.
    case functionUndeclared(name: String)
    /// The function is declared but has no local handler.
    case functionWithoutHandler(name: String)
    case stoppedAfterToolRounds(Int)
    /// A local MCP server's tool ran (`ToolSource`), or failed, or the user declined it.
    case toolOutput(server: String, tool: String, text: String, duration: Duration)
    case toolFailed(server: String, tool: String, message: String)
    case toolDeclined(server: String, tool: String)
}
