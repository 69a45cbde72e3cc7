/// The exit codes of `openresponses`, documented in README.md.
public enum ExitStatus: Int32, Sendable {
    /// The response completed.
    case success = 0
    /// An API error (HTTP or in-stream), a network error or a failed response.
    case apiError = 1
    /// Bad usage or input: a wrong flag, a missing prompt, a missing API key.
    case usage = 2
    /// The response ended as incomplete (for example `max_output_tokens` reached).
    case incomplete = 3
    /// The answer is not the JSON `ask --schema` asked for (not JSON, or it breaks the schema).
    case invalidAnswer = 4
    /// Interrupted by Ctrl-C.
    case interrupted = 130
}

/// An error that knows how it is shown (Hummingbird's `HTTPResponseError` is the model): the words for
/// the user, the exit status a command ends with, and what to do about it. Every error type a command can
/// meet adopts it, and the console's one reporter (`ErrorReport`) prints it, cleaned for a terminal.
public protocol UserFacingError: Error, Sendable {
    /// One line for the user, naming what and where (file:line, key path, flag, document and page).
    var userMessage: String { get }
    /// What a command that ends on this error exits with.
    var exitStatus: ExitStatus { get }
    /// What to do about it, when there is something to say (shown on a line of its own).
    var hint: String? { get }
}

extension UserFacingError {
    public var hint: String? { nil }
}

extension ResponsesAPIError: UserFacingError {
    public var userMessage: String { description }

    public var exitStatus: ExitStatus {
        switch code {
        case .cancelled: .interrupted
        case .configuration: .usage
        default: .apiError
        }
    }
}
