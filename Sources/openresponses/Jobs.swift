import ArgumentParser
import Console
import Foundation
import Workbench

struct Jobs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Background responses this console created, with their status asked of the server.")
    @Flag(
        name: .long, help: "Every job in the ledger (by default: those still running, and those of the last 24 hours).")
    var all = false
    @OptionGroup var printing: OutputOptions

    func run() throws { try withContext { await JobsRunner(context: $0).list(all: all, json: printing.json) } }
}

struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a background response on the server.")
    @Argument(help: "The response id (resp_...).")
    var id: String
    @Flag(name: .long, help: "Print the cancelled response as JSON.")
    var json = false

    @OptionGroup var server: ProviderOptions<JobServer>

    func run() throws {
        let pinned = server.provider != nil
        try withContext(environment: server.environment) {
            await JobsRunner(context: $0).cancel(id: id, json: json, pinned: pinned)
        }
    }
}

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Follow a background response: its stream from the last event shown, or a finished one's answer.")
    @Argument(help: "The response id (resp_...).")
    var id: String

    @OptionGroup var server: ProviderOptions<JobServer>

    func run() throws {
        let pinned = server.provider != nil
        try withContext(environment: server.environment) {
            await JobsRunner(context: $0).attach(id: id, pinned: pinned)
        }
    }
}
