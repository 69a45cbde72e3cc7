#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Which of a process's standard streams are terminals, asked once where the process starts: whether a
/// question can be asked on stdin, whether progress and colour belong on stdout and stderr.
public struct TerminalFacts: Sendable, Hashable {
    public var standardInput: Bool
    public var standardOutput: Bool
    public var standardError: Bool

    public init(standardInput: Bool, standardOutput: Bool, standardError: Bool) {
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// No terminal at all: what tests and pipes have.
    public static let none = TerminalFacts(standardInput: false, standardOutput: false, standardError: false)

    /// This process's streams as they are now (three `isatty` calls).
    public static var process: TerminalFacts {
        TerminalFacts(standardInput: isatty(0) == 1, standardOutput: isatty(1) == 1, standardError: isatty(2) == 1)
    }
}
