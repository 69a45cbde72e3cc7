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
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws { try withContext { await JobsRunner(context: $0).list(all: all, json: json) } }
}

struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a background response on the server.")
    @Argument(help: "The response id (resp_...).")
    var id: String
    @Flag(name: .long, help: "Print the cancelled response as JSON.")
    var json = false

    @OptionGroup var server: JobProvider

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

    @OptionGroup var server: JobProvider

    func run() throws {
        let pinned = server.provider != nil
        try withContext(environment: server.environment) {
            await JobsRunner(context: $0).attach(id: id, pinned: pinned)
        }
    }
}

/// `--provider` on `attach` and `cancel`: a job is asked of the provider the ledger names for it, unless
/// this says which.
struct JobProvider: ParsableArguments {
    @Option(name: .long, help: "Ask this provider (by default: the one the ledger says the job was created on).")
    var provider: String?

    /// This process's environment with the given provider chosen (the job is then pinned to it).
    var environment: AppEnvironment { processEnvironment.choosing(provider: provider) }
}
