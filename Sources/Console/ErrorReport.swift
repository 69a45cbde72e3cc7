import ResponsesAPI

/// The one place an error becomes words and an exit status: `error: MESSAGE` (and `hint: …` on a line of its
/// own) through a sink, which cleans it on a terminal (the message may hold a server's or a document's
/// text). A `UserFacingError` says its own words and status; anything else is shown as it describes itself
/// and ends the command as an API error.
public enum ErrorReport {
    /// The words for `error`.
    public static func message(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? "\(error)"
    }

    /// The exit status a command that ends on `error` exits with.
    public static func status(_ error: any Error) -> ExitStatus {
        if let error = error as? any UserFacingError { return error.exitStatus }
        return error is CancellationError ? .interrupted : .apiError
    }

    /// Writes `error` to `sink` (`context`, when given, goes before the message: what was being done);
    /// returns its exit status.
    @discardableResult
    public static func write(_ error: any Error, to sink: any OutputSink, context: String? = nil) -> ExitStatus {
        let head = context.map { "\($0): " } ?? ""
        sink.write("error: \(head)\(message(error))\n")
        if let hint = (error as? any UserFacingError)?.hint { sink.write("hint: \(hint)\n") }
        return status(error)
    }
}
