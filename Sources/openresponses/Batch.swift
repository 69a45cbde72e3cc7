import ArgumentParser
import Console
import Foundation
import ResponsesAPI
import Untrusted
import Workbench

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Many prompts at half price through the Batch API: submit, follow, and read the results.",
        discussion: "See Docs/batch.md.",
        subcommands: [
            BatchSubmit.self, BatchList.self, BatchStatus.self, BatchWait.self, BatchResults.self, BatchCancel.self,
        ])
}

/// `batch status|wait|results|cancel`: the server the batch is asked of.
enum BatchServerRole: ProviderRole {
    static let help = "Ask this provider (by default: the one the ledger says the batch was created on)."
}

struct BatchSubmit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Compose each line of INPUT.jsonl with a preset, check them all, upload, and create a batch.",
        discussion: """
            Each line is a prompt, {"id": "q1", "input": "...", "vars": {...}, "model": "...", "settings": {...}}, \
            composed as ask composes it (defaults < config < preset < --set < the line's own), or a full request, \
            {"id": "q2", "body": {...}}. Every line is checked before anything is sent: a problem is named \
            INPUT.jsonl:LINE: key: message (exit 2). The estimate at the batch price is shown, then asked about \
            (--yes to skip; off a terminal --yes is needed).
            """)
    @Argument(help: "The prompts, one JSON object a line.")
    var input: String
    @OptionGroup var session: SessionFlags
    @Flag(name: .long, help: "Check the lines and show the estimate; upload nothing.")
    var dryRun = false
    @Flag(name: .shortAndLong, help: "Upload and create without asking.")
    var yes = false
    @OptionGroup var printing: OutputOptions

    func run() throws {
        let environment = try session.environment()
        let confirm: (@Sendable (TerminalText) async -> Bool)? = try confirmation(
            skipped: yes || dryRun,
            refusal: "batch submit uploads and spends, and stdin is not a terminal to ask on: pass --yes (or --dry-run)"
        )
        let request = BatchSubmitRequest(
            inputPath: input, options: session.options, dryRun: dryRun, json: printing.json, confirm: confirm)
        try withContext(environment: environment) { await BatchRunner(context: $0).submit(request) }
    }
}

struct BatchList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The server's batches, newest first.")
    @Option(help: "How many to list (1 to 100).")
    var limit = 20
    @OptionGroup var server: ProviderOptions<NamedServer>
    @OptionGroup var printing: OutputOptions

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit takes 1 to 100 (got \(limit))") }
    }

    func run() throws {
        let (limit, json) = (limit, printing.json)
        try withContext(environment: server.environment) {
            await BatchRunner(context: $0).list(limit: limit, json: json)
        }
    }
}

struct BatchStatus: BatchIDCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What the server says of a batch.")
    @Argument(help: "The batch id (batch_...).") var id: String
    @OptionGroup var server: ProviderOptions<BatchServerRole>
    @OptionGroup var printing: OutputOptions

    func run() throws {
        let json = printing.json
        try onBatch { await $0.status(id: $1, json: json, pinned: $2) }
    }
}

struct BatchWait: BatchIDCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Follow a batch until it ends, with a progress line.",
        discussion: """
            It only asks the server: Ctrl-C, a kill or a restart lose nothing; wait again to go on. Exit status: \
            0 completed, 1 failed, expired or cancelled, 130 interrupted.
            """)
    @Argument(help: "The batch id (batch_...).") var id: String
    @Option(help: "Seconds between asks.") var interval = 10.0
    @OptionGroup var server: ProviderOptions<BatchServerRole>

    func validate() throws {
        guard interval >= 0.05, interval <= 3600 else { throw ValidationError("--interval takes 0.05 to 3600 seconds") }
    }

    func run() throws {
        let pause = Duration.milliseconds(Int64(interval * 1000))
        try onBatch { await $0.wait(id: $1, interval: pause, pinned: $2) }
    }
}

struct BatchResults: BatchIDCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "An ended batch's results matched to the input's lines, as JSONL; recorded by the inspector.")
    @Argument(help: "The batch id (batch_...).") var id: String
    @Option(name: .shortAndLong, help: "Write the results here instead of stdout.") var output: String?
    @OptionGroup var server: ProviderOptions<BatchServerRole>

    func run() throws {
        let output = output
        try onBatch { await $0.results(id: $1, outputPath: output, pinned: $2) }
    }
}

struct BatchCancel: BatchIDCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a batch on the server.")
    @Argument(help: "The batch id (batch_...).") var id: String
    @OptionGroup var server: ProviderOptions<BatchServerRole>
    @OptionGroup var printing: OutputOptions

    func run() throws {
        let json = printing.json
        try onBatch { await $0.cancel(id: $1, json: json, pinned: $2) }
    }
}

/// A command on one batch.
protocol BatchIDCommand: ServerObjectCommand where Role == BatchServerRole {}

extension BatchIDCommand {
    func onBatch(_ body: @escaping @Sendable (BatchRunner, String, Bool) async -> ExitStatus) throws {
        try onObject(BatchRunner.init(context:), body)
    }
}
