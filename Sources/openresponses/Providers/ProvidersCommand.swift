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
                "Ask each provider (or one): GET /models, a tiny response and stream, a chained turn, /embeddings.",
            discussion: """
                With --conformance, a fixed suite instead (create, stream, chain, function call, json_schema, \
                background, input_tokens, file_search, reasoning summary), each stream compared with the rules \
                of OpenAI's own streams: a matrix of providers and checks (✓, ✗ with the first difference, – \
                skipped), kept in the data directory's conformance.json. A provider found not to keep chained \
                turns starts the console in stateless mode. Exit status 0 when every check that ran passed.
                """)
        @Argument(help: "One provider (default: all).") var name: String?
        @Flag(help: "Run the conformance suite and show the matrix.") var conformance = false
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let runner = ProvidersRunner(CommandIO(environment: processEnvironment))
            try finish(
                try blocking { [name, printing, conformance] in
                    conformance
                        ? await runner.conformance(name, json: printing.json)
                        : await runner.check(name, json: printing.json)
                })
        }
    }
}
