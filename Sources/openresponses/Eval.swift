import ArgumentParser
import Console
import Foundation
import Workbench

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Run a prompt-regression suite: each case in each column, each answer checked.",
        discussion: """
            SUITE.yaml names presets and cases; each case has an input (or vars: for a preset's {{variables}}) and \
            assertions under expect: (contains, not_contains, regex, equals, json_schema, similar, max_latency_ms, \
            max_cost, max_tokens, cites, judge); library: true answers a case from the local library as library ask \
            does. A column is a preset, a model and a provider: the suite's presets and each \
            --preset, times each --model, times each --provider. Each case runs in each column --repeat times, \
            --concurrency calls at once; every call is recorded by the inspector, labelled with the run's id. The \
            run is kept in the data directory's evals/RUN.json. See Docs/eval.md.

            With --baseline RUN, the run is compared with the stored run RUN: what regressed and what got better. \
            --html FILE writes the run's page. --batch sends the calls through the Batch API (half the price, one batch \
            a provider) and waits for them; library cases and judges' calls stay live, and max_latency_ms is not \
            checked (no call's latency is known).

            Exit status: 0 every case passed, 1 a case failed (each listed with the assertion and what was seen) \
            or, with --baseline, a column regressed by more than --max-regression, 2 the suite cannot be run \
            (SUITE.yaml:LINE:COLUMN names each problem) or the baseline cannot be read.
            """)

    @Argument(help: "The suite file (YAML).")
    var suite: String

    @Option(
        name: .customLong("preset"),
        help: ArgumentHelp("A preset column besides the suite's; repeatable.", valueName: "name"))
    var presets: [String] = []

    @Option(
        name: .customLong("model"),
        help: ArgumentHelp("A model to run every column with; repeatable.", valueName: "model"))
    var models: [String] = []

    @Option(
        name: .customLong("provider"),
        help: ArgumentHelp("A provider (from providers:) to run every column on; repeatable.", valueName: "name"))
    var providers: [String] = []

    @Option(name: .customLong("repeat"), help: "How many times each case runs in each column.")
    var repeats = 1

    @Option(help: "How many calls at once.")
    var concurrency = 4

    @Flag(help: "Print the run as JSON.")
    var json = false

    @Option(help: ArgumentHelp("A stored run's id to compare with (evals/RUN.json).", valueName: "run"))
    var baseline: String?

    @Option(
        name: .customLong("max-regression"),
        help: "With --baseline: the share (0 to 1) of a column's calls that may regress (0: none).")
    var maxRegression = 0.0

    @Option(help: ArgumentHelp("Write the run as an HTML page.", valueName: "file"))
    var html: String?

    @Flag(
        help:
            "Send the calls through the Batch API (half the price, within 24 h; one batch a provider) and wait for them."
    )
    var batch = false

    @Option(name: .customLong("batch-interval"), help: "With --batch: seconds between asks about each batch.")
    var batchInterval = 10.0

    func validate() throws {
        guard repeats >= 1, repeats <= 100 else { throw ValidationError("--repeat takes 1 to 100") }
        guard concurrency >= 1, concurrency <= 32 else { throw ValidationError("--concurrency takes 1 to 32") }
        guard (0...1).contains(maxRegression) else { throw ValidationError("--max-regression takes 0 to 1") }
        if maxRegression > 0, baseline == nil { throw ValidationError("--max-regression needs --baseline") }
        guard batchInterval >= 0.05, batchInterval <= 3600 else {
            throw ValidationError("--batch-interval takes 0.05 to 3600 seconds")
        }
    }

    func run() throws {
        var request = EvalRequest(
            suitePath: suite, presets: presets, models: models, providers: providers, repeats: repeats,
            concurrency: concurrency, json: json, baseline: baseline, maxRegression: maxRegression, html: html)
        request.batch = batch
        request.batchInterval = .milliseconds(Int64(batchInterval * 1000))
        let chosen = request
        try withContext(environment: processEnvironment) { context in await EvalRunner(context: context).run(chosen) }
    }
}
