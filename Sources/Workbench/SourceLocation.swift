/// A place in a file: `path:line:column`, lines and columns counted from 1.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String { "\(path):\(line):\(column)" }
}
