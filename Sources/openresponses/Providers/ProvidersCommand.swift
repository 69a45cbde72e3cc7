import ArgumentParser
import Console
import Foundation
import Workbench

/// `openresponses providers list|check`.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract:
            "The servers in config.yaml's providers: (and the environment's, as default), and what each one does.",
        subcommands: [List.self, Check.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Each provider: name, base URL, where its key comes from.")
        @OptionGroup var printing: OutputOptions
        func run() throws {
            try finish(ProvidersRunner(CommandIO(environment: processEnvironment)).list(json: printing.json))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Ask each provider (or one): GET /models, a tiny response and stream, a chained turn, /embeddings.")
        @Argument(help: "One provider (default: all).") var name: String?
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let runner = ProvidersRunner(CommandIO(environment: processEnvironment))
            try finish(try blocking { [name, printing] in await runner.check(name, json: printing.json) })
        }
    }
}
