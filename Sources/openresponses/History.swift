import ArgumentParser
import Console
import Foundation

extension HistoryRunner.Format: ExpressibleByArgument {}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Past conversations, from the inspector's records: list, show, search, export, delete.",
        subcommands: [List.self, Show.self, Search.self, Export.self, Delete.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Conversations, newest first.")
        @Option(name: .long, help: "How many.") var limit = 20
        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit takes a number of 1 or more, not \(limit)") }
        }
        @OptionGroup var printing: OutputOptions
        func run() throws {
            try withContext { [limit, printing] in
                await HistoryRunner(context: $0).list(limit: limit, json: printing.json)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "One conversation as Markdown (rendered on a terminal): turns, tool calls, citations, usage.")
        @Argument(help: "The conversation's id (its first characters are enough; history list shows them).") var id:
            String
        func run() throws { try withContext { [id] in await HistoryRunner(context: $0).show(id) } }
    }

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search", abstract: "Conversations whose questions, answers or tool output hold every word.")
        @Argument(help: "The words.") var words: [String]
        @Option(name: .long, help: "How many.") var limit = 20
        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit takes a number of 1 or more, not \(limit)") }
        }
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let text = words.joined(separator: " ")
            try withContext { [limit, printing] in
                await HistoryRunner(context: $0).search(text, limit: limit, json: printing.json)
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "A conversation as Markdown or as JSON (the items as sent and received).")
        @Argument(help: "The conversation's id (or its first characters).") var id: String
        @Option(name: .long, help: "md or json.") var format = HistoryRunner.Format.md
        @Option(name: .shortAndLong, help: "Write to this file (default: stdout).") var output: String?
        func run() throws {
            try withContext { [id, format, output] in
                await HistoryRunner(context: $0).export(id, format: format, to: output)
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract:
                "Delete a conversation's local records; with --server, first its stored responses and conversation on the server (asks first)."
        )
        @Argument(help: "The conversation's id (or its first characters).") var id: String
        @Flag(name: .long, help: "Also delete its stored responses and its conversation on the server.") var server =
            false
        @Flag(name: .shortAndLong, help: "Do not ask.") var yes = false
        @OptionGroup var target: ProviderOptions<NamedServer>
        func run() throws {
            let ask = try confirmation(
                skipped: yes || !server,
                refusal:
                    "history delete --server deletes on the server and stdin is not a terminal to ask on: pass --yes")
            let pinned = target.provider != nil
            try withContext(environment: target.environment) { [id, server] in
                await HistoryRunner(context: $0).delete(id, server: server, pinned: pinned, ask: ask)
            }
        }
    }
}
