/// A preset or config file that cannot be used: every problem found in it, or why it could not be read.
public struct PresetError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [PresetDiagnostic]
    private var plainMessage: String?

    public init(diagnostics: [PresetDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(message: String) {
        self.diagnostics = []
        self.plainMessage = message
    }

    /// One line per problem.
    public var description: String {
        plainMessage ?? diagnostics.map(\.description).joined(separator: "\n")
    }

    public var message: String { description }
}
