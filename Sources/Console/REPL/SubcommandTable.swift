import ResponsesAPI

/// The command line's subcommands the console runs after a slash (`/files upload ...`, `/stores list ...`),
/// by root word. The executable declares and parses them (the command definitions live there) and hands
/// the console this table when it opens it; the console completes their names, and runs what a parse
/// returns on its own context.
public struct SubcommandTable: Sendable {
    /// One root word's subcommands (`files`, `stores`).
    public struct Root: Sendable {
        /// The subcommand names, as the command line has them (Tab offers them).
        public var names: [String]
        /// Parses the words after the root word, as the command line would.
        public var parse: @Sendable (_ words: [String]) -> SubcommandLine

        public init(names: [String], parse: @escaping @Sendable (_ words: [String]) -> SubcommandLine) {
            self.names = names
            self.parse = parse
        }
    }

    public var roots: [String: Root]

    public init(_ roots: [String: Root] = [:]) {
        self.roots = roots
    }

    public subscript(root: String) -> Root? { roots[root] }

    /// The subcommand names under `root` (none for a root the table lacks).
    func names(of root: String) -> [String] { roots[root]?.names ?? [] }
}

/// What the words after a root word came to.
public enum SubcommandLine: Sendable {
    /// A subcommand to run against a `FilesRunner`, on `--provider`'s server when one is named.
    case run(provider: String?, execute: @Sendable (FilesRunner) async -> ExitStatus)
    /// Text for the output: the root's help (no subcommand given).
    case help(String)
    /// What the parse said was wrong (or the help asked for), for the diagnostics.
    case message(String)
}
