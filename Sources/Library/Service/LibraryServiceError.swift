import ResponsesAPI

/// Why a library operation could not go on, when it is not one document's fault (those are `LibraryError`,
/// which name the document and page): a setting out of range, an embedder that cannot run, a library that
/// cannot be opened, a switch of embedder that must be asked for.
public struct LibraryServiceError: UserFacingError, CustomStringConvertible, Hashable {
    public var message: String
    public var exitStatus: ExitStatus
    public var hint: String?

    public init(_ message: String, exitStatus: ExitStatus = .apiError, hint: String? = nil) {
        self.message = message
        self.exitStatus = exitStatus
        self.hint = hint
    }

    public var userMessage: String { message }
    public var description: String { message }
}

extension LibraryError: UserFacingError {
    public var userMessage: String { path.isEmpty ? message : description }
    public var exitStatus: ExitStatus { .apiError }
}
