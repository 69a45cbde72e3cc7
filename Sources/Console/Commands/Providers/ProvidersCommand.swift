import ArgumentParser
import Foundation
import Workbench

/// `openresponses providers list|check`.
public struct ProvidersCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract:
            "The servers in config.yaml's providers: (and the environment's, as default), and what each one does.",
        subcommands: [List.self, Check.self])

    public init() {}

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Each provider: name, base URL, where its key comes from.")
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            let status = ProvidersRunner(CommandIO(environment: .process)).list(json: json)
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Ask each provider (or one): GET /models, a tiny response and stream, a chained turn, /embeddings.")
        @Argument(help: "One provider (default: all).") var name: String?
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            let runner = ProvidersRunner(CommandIO(environment: .process))
            let name = self.name
            let json = self.json
            let interrupt = try InterruptPipe()
            interrupt.install()
            defer { interrupt.uninstall() }
            let (status, _) = MainThreadBridge(interrupt: interrupt).run { await runner.check(name, json: json) }
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }
}
