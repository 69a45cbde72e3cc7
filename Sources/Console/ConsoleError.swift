/// A console-level failure with a message meant for the user.
public struct ConsoleError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var exitStatus: ExitStatus

    init(_ message: String, exitStatus: ExitStatus = .usage) {
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { message }
}
