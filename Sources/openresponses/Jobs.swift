import ArgumentParser
import Console
import Foundation
import ResponsesAPI
import Workbench

struct Jobs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Background responses this console created, with their status asked of the server.",
        subcommands: [JobsList.self, JobsWait.self], defaultSubcommand: JobsList.self)
}

struct JobsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Background responses this console created, with their status asked of the server (the default).")
    @Flag(
        name: .long, help: "Every job in the ledger (by default: those still running, and those of the last 24 hours).")
    var all = false
    @OptionGroup var printing: OutputOptions

    func run() throws { try withContext { await JobsRunner(context: $0).list(all: all, json: printing.json) } }
}

struct JobsWait: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until a background response has ended, then print its answer.",
        discussion: """
            The status is asked of the server every half second at first, then less often (at most every 5 s). \
            Ctrl-C stops waiting; the job goes on. Exit status: 0 completed, 1 failed or cancelled, 3 incomplete, \
            130 interrupted.
            """)
    @Argument(help: "The response id (resp_...), as ask --detach printed it.")
    var id: String

    @OptionGroup var server: ProviderOptions<JobServer>

    func run() throws { try onJob { await $0.wait(id: $1, pinned: $2) } }
}

struct Cancel: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a background response on the server.")
    @Argument(help: "The response id (resp_...).")
    var id: String
    @Flag(name: .long, help: "Print the cancelled response as JSON.")
    var json = false

    @OptionGroup var server: ProviderOptions<JobServer>

    func run() throws {
        let json = json
        try onJob { await $0.cancel(id: $1, json: json, pinned: $2) }
    }
}

struct Attach: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Follow a background response: its stream from the last event shown, or a finished one's answer.")
    @Argument(help: "The response id (resp_...).")
    var id: String

    @OptionGroup var server: ProviderOptions<JobServer>

    func run() throws { try onJob { await $0.attach(id: $1, pinned: $2) } }
}

/// A command on one object a server keeps (a job, a batch): its id, and the provider it is asked of (the
/// ledger's, unless `--provider` pins one).
protocol ServerObjectCommand: ParsableCommand {
    associatedtype Role: ProviderRole
    var id: String { get }
    var server: ProviderOptions<Role> { get }
}

extension ServerObjectCommand {
    /// Runs `body` with the runner `make` makes of the context, the id, and whether `--provider` pinned the server.
    func onObject<Runner>(
        _ make: @escaping @Sendable (ConsoleContext) -> Runner,
        _ body: @escaping @Sendable (Runner, String, Bool) async -> ExitStatus
    ) throws {
        let (id, pinned) = (id, server.provider != nil)
        try withContext(environment: server.environment) { await body(make($0), id, pinned) }
    }
}

/// A command on one job.
protocol JobCommand: ServerObjectCommand where Role == JobServer {}

extension JobCommand {
    func onJob(_ body: @escaping @Sendable (JobsRunner, String, Bool) async -> ExitStatus) throws {
        try onObject(JobsRunner.init(context:), body)
    }
}
