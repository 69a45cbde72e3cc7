import Foundation
import Inspector
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// What `openresponses eval SUITE.yaml` was asked: the suite, the columns the command line adds, how many
/// times each case runs in each column, how many calls at once, and whether the report is JSON.
public struct EvalRequest: Sendable {
    public var suitePath: String
    public var presets: [String]
    public var models: [String]
    public var providers: [String]
    public var repeats: Int
    public var concurrency: Int
    public var json: Bool
    /// `--baseline RUN`: a stored run's id to compare with; `--max-regression`: the share of a column's calls
    /// that may regress (0: none).
    public var baseline: String?
    public var maxRegression: Double = 0
    /// `--html FILE`: the run's page is written there.
    public var html: String?
    /// `--batch`: the calls through the Batch API, its batches asked about every `batchInterval`.
    public var batch = false
    public var batchInterval = Duration.seconds(10)

    public init(
        suitePath: String, presets: [String] = [], models: [String] = [], providers: [String] = [], repeats: Int = 1,
        concurrency: Int = 4, json: Bool = false, baseline: String? = nil, maxRegression: Double = 0,
        html: String? = nil
    ) {
        self.baseline = baseline
        self.maxRegression = maxRegression
        self.html = html
        self.suitePath = suitePath
        self.presets = presets
        self.models = models
        self.providers = providers
        self.repeats = repeats
        self.concurrency = concurrency
        self.json = json
    }
}

/// `openresponses eval`: the suite read and checked (Workbench's `EvalSuite`), each case sent in each column
/// through the context's client (so the inspector records it, labelled `eval` with the run's id), each answer
/// checked (`EvalChecker`), the run kept in `evals/<run>.json`, and the report shown.
public struct EvalRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    /// One call to make: a case in a column, which repeat.
    struct Call: Sendable {
        var item: EvalCase
        var column: EvalColumn
        var attempt: Int
    }

    public func run(_ request: EvalRequest) async -> ExitStatus {
        var suite: EvalSuite
        let checker: EvalChecker
        let baseline: JSONValue?
        do {
            baseline = try request.baseline.map(storedRun)
            suite = try EvalSuite.load(path: request.suitePath)
            for name in request.presets where !suite.presets.contains(name) { suite.presets.append(name) }
            let library = PresetLibrary(environment: context.environment)
            // With no preset named, each call uses the config file's: its variables are checked too.
            let configured = try? ConfigFile.load(environment: context.environment)?.preset
            _ = try suite.checkPresets(implicit: configured ?? nil) { name throws(PresetError) in
                try library.load(name)
            }
            checker = try EvalChecker.forSuite(suite, modelFolder: modelFolder)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        let columns = EvalColumn.matrix(presets: suite.presets, models: request.models, providers: request.providers)
        let contexts: [EvalColumn: ConsoleContext]
        do {
            let judges = suite.judgePresetLocations.keys.sorted().map(Self.judgeColumn)
            contexts = try await self.contexts(for: columns + judges)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        let runID = EvalRun.newID(now: context.environment.now())
        var calls: [Call] = []
        for item in suite.cases {
            for column in columns {
                for attempt in 1...max(1, request.repeats) {
                    calls.append(Call(item: item, column: column, attempt: attempt))
                }
            }
        }
        let results: [EvalResult]
        if request.batch {
            do {
                results = try await runBatched(
                    calls, contexts: contexts, runID: runID, checker: checker, request: request)
            } catch {
                await shutDown(contexts.values)
                await context.recorder?.waitUntilIdle()
                return .interrupted
            }
        } else {
            results = await runAll(
                calls, contexts: contexts, runID: runID, checker: checker, concurrency: request.concurrency)
        }
        await shutDown(contexts.values)
        await context.recorder?.waitUntilIdle()
        let run = EvalRun(
            id: runID, suite: suite.name.isEmpty ? request.suitePath : suite.name, columns: columns, results: results)
        do {
            let path = try keep(run)
            if !request.json { context.diagnostics.write("run \(runID) kept in \(path)\n") }
        } catch {
            context.diagnostics.write("warning: the run could not be kept: \(error)\n")
        }
        return report(run, baseline: baseline, request: request)
    }

    /// The run shown (the table or JSON, the comparison with the baseline), then the page written; the exit
    /// status: with a baseline, 1 when a column regressed by more than the limit; else 1 when a call failed (a
    /// page that cannot be written: its error's).
    func report(_ run: EvalRun, baseline: JSONValue?, request: EvalRequest) -> ExitStatus {
        let comparison: EvalComparison?
        do {
            comparison = try baseline.map { json throws(EvalBaselineError) in
                try EvalComparison(run, against: json, maxRegression: request.maxRegression)
            }
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        if request.json {
            var json = run.json
            if case .object(var object) = json, let comparison {
                object["baseline"] = comparison.json
                json = .object(object)
            }
            context.output.write(json.prettyPrinted() + "\n")
        } else {
            context.output.write(Self.table(run))
            if let comparison { context.output.write(Self.comparisonText(comparison)) }
        }
        if let path = request.html {
            do {
                try EvalPage.write(run, comparison: comparison, to: path)
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
        }
        if let comparison { return comparison.exceeded ? .apiError : .success }
        return run.passed ? .success : .apiError
    }

    /// Every call made and checked, at most `concurrency` at once; the results in the calls' order. A call with
    /// an observation in `observed` (answered through a batch) is checked without being sent.
    func runAll(
        _ calls: [Call], contexts: [EvalColumn: ConsoleContext], runID: String, checker: EvalChecker, concurrency: Int,
        observed: [EvalObservation?] = []
    ) async -> [EvalResult] {
        var results = [EvalResult?](repeating: nil, count: calls.count)
        await withTaskGroup(of: (Int, EvalResult).self) { group in
            var next = 0
            func start() {
                guard next < calls.count else { return }
                let index = next
                let call = calls[index]
                let made = contexts[call.column] ?? context
                let judge = Self.judge(for: call.column, on: made, contexts: contexts, runID: runID)
                let known = observed.indices.contains(index) ? observed[index] : nil
                group.addTask {
                    let observation = if let known { known } else { await Self.send(call, on: made, runID: runID) }
                    let verdict = await checker.verdict(of: call.item, observation, judge: judge)
                    return (
                        index,
                        EvalResult(
                            caseID: call.item.id, column: call.column, attempt: call.attempt, observation: observation,
                            failures: verdict.failures, judgements: verdict.judgements)
                    )
                }
                next += 1
            }
            for _ in 0..<max(1, concurrency) { start() }
            for await (index, result) in group {
                results[index] = result
                start()
            }
        }
        return results.compactMap { $0 }
    }

    /// Each column's context: its `--provider`, else the provider its preset (or the config file) names, else
    /// this context's; one per provider, made before the calls (a context is not made concurrently).
    func contexts(for columns: [EvalColumn]) async throws -> [EvalColumn: ConsoleContext] {
        var byName: [String: ConsoleContext] = [context.providerName: context]
        var result: [EvalColumn: ConsoleContext] = [:]
        do {
            for column in columns {
                let named = try ProviderCatalog.selectedName(environment: context.environment, preset: column.preset)
                let name = column.provider ?? named ?? context.providerName
                if byName[name] == nil { byName[name] = try context.forProvider(name) }
                result[column] = byName[name]
            }
        } catch {
            await shutDown(byName.values)
            throw error
        }
        return result
    }

    /// Shuts the contexts made for other providers down (each once; never this one).
    func shutDown(_ contexts: some Collection<ConsoleContext>) async {
        var done: Set<ObjectIdentifier> = [ObjectIdentifier(context)]
        for made in contexts where done.insert(ObjectIdentifier(made)).inserted { await made.shutdown() }
    }

    /// Where the built-in model is, as the library finds it.
    var modelFolder: String {
        let options = (try? LibraryOptions.configured(environment: context.environment)) ?? LibraryOptions()
        return options.modelFolder(dataDirectory: context.environment.dataDirectory)
    }
}
