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
    /// Interrupted by Ctrl-C.
    case interrupted = 130
}
