import ArgumentParser
import Console
import Foundation
import Workbench

struct LedgerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract:
            "What recorded exchanges left on servers (stored responses, files, vector stores, conversations, containers, uploads): list, verify, gc.",
        subcommands: [List.self, Verify.self, GC.self])

    struct Selection: ParsableArguments {
        @Option(
            name: .long, help: "Only this type: response, file, vector_store, conversation, container, upload or batch."
        )
        var type: String?
        @OptionGroup var server: ProviderOptions<NamedServer>
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "The objects left on servers, oldest first.")
        @OptionGroup var selection: Selection
        @Option(name: .long, help: "Only those created before this age (30d, 12h) or time.")
        var olderThan: String?
        @OptionGroup var printing: OutputOptions

        func run() throws {
            let filter = LedgerRunner.Filter(
                type: selection.type, createdBefore: try olderThan.map { try time($0, flag: "--older-than") })
            let json = printing.json
            try withContext(environment: selection.server.environment) {
                await LedgerRunner(context: $0).list(filter, json: json)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Ask the server whether each object still exists; those gone are marked deleted.")
        @OptionGroup var selection: Selection

        func run() throws {
            let filter = LedgerRunner.Filter(type: selection.type)
            try withContext(environment: selection.server.environment) {
                await LedgerRunner(context: $0).verify(filter)
            }
        }
    }

    struct GC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gc",
            abstract: "Delete on the server the objects created before an age; asks first unless --yes.")
        @OptionGroup var selection: Selection
        @Option(name: .long, help: "Delete those created before this age (30d, 12h) or time.")
        var olderThan: String
        @Flag(name: .long, help: "Name what would be deleted; delete nothing.")
        var dryRun = false
        @Flag(name: .shortAndLong, help: "Delete without asking.")
        var yes = false

        func run() throws {
            let filter = LedgerRunner.Filter(
                type: selection.type, createdBefore: try time(olderThan, flag: "--older-than"))
            let ask = try confirmation(
                skipped: yes || dryRun,
                refusal:
                    "ledger gc deletes on the server and stdin is not a terminal to ask on: pass --yes (or --dry-run)")
            let dryRun = dryRun
            try withContext(environment: selection.server.environment) {
                await LedgerRunner(context: $0).gc(filter, dryRun: dryRun, ask: ask)
            }
        }
    }
}
