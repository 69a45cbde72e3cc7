import ArgumentParser
import Console
import Foundation
import ResponsesAPI

@main
struct OpenResponses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openresponses",
        abstract: "A power-user console for the OpenAI Responses API.",
        discussion: """
            With no subcommand, opens the interactive console (chat).

            Environment: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENRESPONSES_HOME, OPENRESPONSES_PROVIDER (a name from config.yaml's providers:).

            Exit status: 0 completed, 1 API or network error, 2 bad usage or input, 3 incomplete, 4 the answer does not match ask --schema, 130 interrupted.
            """,
        version: "0.1.0 (\(BuildRevision.git))",
        subcommands: [
            Chat.self, Ask.self, LibraryCommand.self, FilesCommand.self, StoresCommand.self, ContainersCommand.self,
            Inspect.self, LedgerCommand.self, Jobs.self, Attach.self, Cancel.self, History.self, ProxyCommand.self,
            Presets.self, Settings.self, Models.self, Eval.self, BatchCommand.self,
            ProvidersCommand.self, MCPCommand.self,
        ],
        defaultSubcommand: Chat.self
    )

    /// `ask` is what scripts run in loops: it is parsed on its own, without building the whole command tree
    /// (a few milliseconds of reflection per start). Anything unusual — help, completion scripts, a parse
    /// error — goes through the full tree, so messages and usage read the same as ever. A mistyped subcommand
    /// is said to be one, with the closest real one (`UnknownCommand`).
    static func main() {
        // swift-log's lines through the terminal cleaner: a log message can quote a server's bytes.
        TerminalLogHandler.bootstrap()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == Ask.configuration.commandName,
            !arguments.contains(where: {
                $0 == "-h" || $0 == "--help" || $0 == "help" || $0.hasPrefix("--generate-completion")
                    || $0 == "--version"
            })
        {
            // The inspector's store opens on the other core while the arguments are parsed.
            ConsoleContext.prepare(environment: processEnvironment)
            if var command = try? Ask.parseAsRoot(Array(arguments.dropFirst())) {
                var failure: (any Error)?
                do { try command.run() } catch { failure = error }
                ConsoleContext.settlePrepared()
                OpenResponses.exit(withError: failure)  // status 0 without one
            }
            ConsoleContext.settlePrepared()
        }
        if let unknown = UnknownCommand.message(for: arguments, root: OpenResponses.self) {
            FileDescriptorOutput.standardError.write(unknown)
            OpenResponses.exit(withError: ExitCode(ExitStatus.usage.rawValue))
        }
        OpenResponses.main(arguments)
    }
}
