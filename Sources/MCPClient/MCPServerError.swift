import ResponsesAPI

/// What went wrong with an MCP server, naming it: it could not be started, it ended or hung, it answered with an
/// error, or its declaration is wrong. Carries the last lines it wrote to stderr where they explain it.
public struct MCPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case configuration
        case start
        /// The server ended (crashed, or closed its stdout).
        case exited
        /// It did not answer within its timeout.
        case timeout
        /// It answered the call with a JSON-RPC error.
        case server
        /// Something sent by it broke a rule (a message over the size cap, not JSON-RPC).
        case protocolViolation
        /// No such server or tool.
        case unknown
        case cancelled
    }

    public var kind: Kind
    public var server: String
    public var message: String
    /// The server's last stderr lines (cleaned for a terminal where they are shown).
    public var stderrTail: [String]

    public init(_ kind: Kind, server: String, _ message: String, stderrTail: [String] = []) {
        self.kind = kind
        self.server = server
        self.message = message
        self.stderrTail = stderrTail
    }

    public var description: String {
        guard !stderrTail.isEmpty else { return message }
        return message + "; its last words on stderr:\n" + stderrTail.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension MCPServerError: UserFacingError {
    public var userMessage: String { description }

    public var exitStatus: ExitStatus {
        switch kind {
        case .configuration, .unknown: .usage
        case .cancelled: .interrupted
        default: .apiError
        }
    }
}
