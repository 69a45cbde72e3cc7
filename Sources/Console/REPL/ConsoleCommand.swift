/// One slash command of the console, declared once: its name and aliases, its lines in `/help`, what Tab
/// offers after it, and what it does. `REPL.handleCommand` dispatches through `ConsoleCommand.all`,
/// `REPL.help` is made from it and `Completer` completes from it, so the three cannot drift.
struct ConsoleCommand: Sendable {
    /// The command as typed, with its slash (`/preset`).
    var name: String
    /// Other spellings that run it (`/presets`); not offered by Tab.
    var aliases: [String] = []
    /// Its lines in `/help`: a usage and a summary each.
    var help: [(usage: String, summary: String)]
    /// What Tab offers for the word at `position` (0 is the first word after the command), given the words
    /// before it.
    var complete: @Sendable (_ position: Int, _ words: [String], _ sources: CompletionSources) -> [String] = {
        _, _, _ in []
    }
    /// Runs it with the rest of the line (after the command and its space) and that rest's words.
    var run: @Sendable (_ repl: REPL, _ input: CommandInput) -> REPL.CommandResult

    /// Completes the first word after the command from a fixed list.
    static func firstWord(_ options: [String]) -> @Sendable (Int, [String], CompletionSources) -> [String] {
        { position, _, _ in position == 0 ? options : [] }
    }
}

extension ConsoleCommand {
    /// A command that does `action` and goes on to the next prompt (every command but `/quit`).
    init(
        name: String, aliases: [String] = [], help: [(usage: String, summary: String)],
        complete: @escaping @Sendable (Int, [String], CompletionSources) -> [String] = { _, _, _ in [] },
        action: @escaping @Sendable (_ repl: REPL, _ input: CommandInput) -> Void
    ) {
        self.init(
            name: name, aliases: aliases, help: help, complete: complete,
            run: { repl, input in
                action(repl, input)
                return .continue
            })
    }
}

/// What a command was given.
struct CommandInput: Sendable {
    /// The text after the command, trimmed.
    var rest: String
    /// `rest` split on spaces.
    var words: [String] { rest.split(separator: " ").map(String.init) }
}

/// Where completions that change over a session come from.
struct CompletionSources: Sendable {
    var presetNames: @Sendable () -> [String]
    /// Vector store ids seen in this session (listed or used).
    var storeIDs: @Sendable () -> [String]
    /// The command line's subcommand names under a root word (`files`, `stores`; `SubcommandTable`).
    var subcommands: @Sendable (_ root: String) -> [String]
    /// The local MCP servers' names (`/mcp`).
    var mcpServers: @Sendable () -> [String] = { [] }
    /// The config file's model aliases, then the model ids the price table knows (`/model`).
    var models: @Sendable () -> [String] = { [] }
}

extension ConsoleCommand {
    /// Every slash command, in the order `/help` lists them: each area's list (`ConsoleCommand+Area.swift`).
    static let all: [ConsoleCommand] =
        settingsCommands + answerCommands + conversationCommands + documentCommands + sessionCommands

    /// The command named `word` (or one of its aliases).
    static func named(_ word: String) -> ConsoleCommand? {
        all.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// Every command name Tab offers, sorted.
    static var names: [String] { all.map(\.name).sorted() }
}
