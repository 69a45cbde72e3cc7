import ArgumentParser
import Console
import Foundation
import ResponsesAPI

/// A `files`, `stores` or `containers` subcommand: parsed by ArgumentParser both on the command line and,
/// for `files` and `stores`, after `/files` or `/stores` in the console (`SubcommandTable.commandLine`), and
/// run against a `FilesRunner`.
protocol FilesRunnerCommand: ParsableCommand, Sendable {
    func execute(_ runner: FilesRunner) async -> ExitStatus
    /// `--provider`: whose files and stores.
    var server: ProviderOptions<FilesServer> { get }
}

extension FilesRunnerCommand {
    /// The command line: a context for this process with `--provider`'s server chosen, Ctrl-C cancels, the
    /// exit status is the process's.
    func run() throws {
        let environment = server.environment
        try withContext(environment: environment) { [self] context in
            await execute(FilesRunner(context: context, progressEnabled: environment.terminal.standardError))
        }
    }
}

extension SubcommandTable {
    /// The subcommands the console runs after `/files` and `/stores`: the command line's, parsed as it
    /// parses them (the same help and messages).
    static let commandLine = SubcommandTable([
        "files": Root(FilesCommand.self), "stores": Root(StoresCommand.self),
    ])
}

extension SubcommandTable.Root {
    /// `root`'s subcommands: their names, and the words after the root word parsed into one to run, the
    /// root's help (no subcommand), or what was wrong with them.
    init(_ root: any ParsableCommand.Type) {
        let names = root.configuration.subcommands.map { $0.configuration.commandName ?? "\($0)".lowercased() }
        self.init(names: names) { words in
            let command: any ParsableCommand
            do {
                command = try root.parseAsRoot(words)
            } catch {
                let message = root.message(for: error)
                return .message(words.isEmpty || message.isEmpty ? root.fullMessage(for: error) : message)
            }
            guard let runnable = command as? any FilesRunnerCommand else { return .help(root.helpMessage()) }
            return .run(provider: runnable.server.provider) { await runnable.execute($0) }
        }
    }
}
