import ArgumentParser
import Console
import ResponsesAPI
import Workbench

/// A `library` subcommand: parsed by ArgumentParser and run against a `LibraryRunner`.
protocol LibraryRunnerCommand: ParsableCommand, Sendable {
    func execute(_ runner: LibraryRunner) async -> ExitStatus
    /// The environment the runner works in: this process's (with `--provider`'s server, for those that have it).
    var environment: AppEnvironment { get }
}

/// A `library` subcommand that talks to a server, chosen by `--provider`.
protocol LibraryServerCommand: LibraryRunnerCommand {
    var server: ProviderOptions<LibraryServer> { get }
}

extension LibraryRunnerCommand {
    var environment: AppEnvironment { processEnvironment }

    /// The command line: the runner in this process's environment (the contexts it makes talk to the chosen
    /// server), Ctrl-C cancels, the exit status is the process's.
    func run() throws {
        let runner = LibraryRunner(CommandIO(environment: environment))
        try finish(try blocking { [self] in await execute(runner) })
    }
}

extension LibraryServerCommand {
    var environment: AppEnvironment { server.environment }
}
