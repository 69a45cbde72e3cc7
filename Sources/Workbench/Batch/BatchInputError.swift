import ResponsesAPI

/// One thing wrong with one line of a batch's input: `INPUT.jsonl:LINE: key: message`.
public struct BatchInputProblem: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int
    /// The key path inside the line (`vars.name`, `settings.temperature`), nil for the line as a whole.
    public var key: String?
    public var message: String

    public init(path: String, line: Int, key: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String { "\(path):\(line): " + (key.map { "\($0): " } ?? "") + message }
}

/// A batch input that cannot be submitted: every problem found (the first `shownLimit` kept, the rest
/// counted), nothing uploaded.
public struct BatchInputError: Error, Sendable, CustomStringConvertible, UserFacingError {
    public static let shownLimit = 50

    public var problems: [BatchInputProblem]
    /// Problems found beyond those kept.
    public var more: Int

    public init(problems: [BatchInputProblem], more: Int = 0) {
        self.problems = problems
        self.more = more
    }

    public var description: String {
        (problems.map(\.description) + (more > 0 ? ["... and \(more) more problems"] : [])).joined(separator: "\n")
    }

    public var userMessage: String { description }
    public var exitStatus: ExitStatus { .usage }
    public var hint: String? { "nothing was uploaded; Docs/batch.md describes a line" }
}
