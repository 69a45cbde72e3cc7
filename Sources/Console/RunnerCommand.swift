import ArgumentParser
import Foundation
import ResponsesAPI
import Workbench

/// A `files` or `stores` subcommand: parsed by ArgumentParser both on the command line and after
/// `/files` or `/stores` in the console, and run against a `FilesRunner`.
protocol RunnerCommand: ParsableCommand, Sendable {
    func execute(_ runner: FilesRunner) async -> ExitStatus
    /// `--provider`: whose files and stores.
    var server: ProviderOption { get }
}

/// `--provider NAME`, on every `files` and `stores` subcommand.
struct ProviderOption: ParsableArguments, Sendable {
    @Option(help: "The server whose files or stores these are: a name from config.yaml's providers:, or default.")
    var provider: String?
}

extension RunnerCommand {
    /// The command line: a context for this process, Ctrl-C cancels, the exit status is the process's.
    func run() throws {
        // This process's environment, resolved here at the top, with `--provider`'s server chosen.
        let environment = AppEnvironment.process.choosing(provider: server.provider)
        let context: ConsoleContext
        do {
            context = try ConsoleContext(environment: environment)
        } catch {
            ErrorReport.write(error, to: FileDescriptorOutput.standardError)
            throw ExitCode(error.exitStatus.rawValue)
        }
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let runner = FilesRunner(context: context, progressEnabled: environment.terminal.standardError)
        let command = self
        let (status, _) = MainThreadBridge(interrupt: interrupt).run {
            let status = await command.execute(runner)
            await context.shutdown()
            return status
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
