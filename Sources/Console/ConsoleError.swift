import ResponsesAPI

/// A console-level failure with a message meant for the user.
public struct ConsoleError: UserFacingError, CustomStringConvertible {
    public var message: String
    public var exitStatus: ExitStatus
    public var hint: String?

    init(_ message: String, exitStatus: ExitStatus = .usage, hint: String? = nil) {
        self.message = message
        self.exitStatus = exitStatus
        self.hint = hint
    }

    public var userMessage: String { message }
    public var description: String { message }
}
