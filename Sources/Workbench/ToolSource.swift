import ResponsesAPI

/// Tools a session offers besides the ones its settings declare: local MCP servers' (`MCPToolbox` in MCPClient).
/// The session asks it for their definitions before each request, and hands it the calls it owns: the policy
/// (approval, what the output is) stays with the session, the running of them with the source.
public protocol ToolSource: Sendable {
    /// Function tools to add to the next request (servers started as need be), and notes for the user (a
    /// server that could not be started, named, with why).
    func offeredTools() async -> (tools: [JSONValue], notes: [String])
    /// What the call `name` is, if it is one of this source's tools: the server and tool it runs, and whether
    /// it runs without a yes.
    func plan(for name: String) async -> (server: String, tool: String, trusted: Bool)?
    /// Runs the call (after its approval). Never throws: a failure is an outcome the model is told of.
    func call(_ plan: ToolCallPlan, arguments: String) async -> ToolCallOutcome
}

/// Which server and tool a function call runs, and whether it needs a yes.
public struct ToolCallPlan: Sendable, Hashable {
    public var server: String
    public var tool: String
    public var trusted: Bool
}

/// How a call ended: the function call's output for the next request (a string, or content parts with images),
/// and its text for the user, which is the output's text or why it failed.
public struct ToolCallOutcome: Sendable, Hashable {
    public var output: JSONValue
    public var ending: Ending
    public var duration: Duration

    public enum Ending: Sendable, Hashable {
        case completed(String)
        case failed(String)
    }

    public init(output: JSONValue, ending: Ending, duration: Duration) {
        self.output = output
        self.ending = ending
        self.duration = duration
    }

    public var text: String {
        switch ending {
        case .completed(let text), .failed(let text): text
        }
    }

    public var failed: Bool {
        if case .failed = ending { true } else { false }
    }
}

/// An MCP call a turn made, as it is kept with the turn (`TurnOutcome.toolCalls`): which server and tool, with
/// what arguments, for which response, and how it ended (`result` is the output's text, or why it failed or
/// did not run).
public struct ToolCallRecord: Sendable, Hashable {
    public var callID: String
    public var responseID: String
    public var plan: ToolCallPlan
    public var arguments: String
    public var result: String
    public var status: Status
    public var duration: Duration

    public enum Status: String, Sendable, Hashable {
        case completed, failed, declined
    }
}
