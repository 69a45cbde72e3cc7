import Foundation
import Inspector
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// What `inspect replay --against` was asked: the target, which exchanges (ids, else a sample since a time),
/// how many at once, and where the report goes.
public struct ReplayAgainstRequest: Sendable {
    public var target: String
    public var ids: [Int64]
    public var since: Date
    public var sample: Int
    public var concurrency: Int
    public var html: String?
    public var json: Bool

    public init(
        target: String, ids: [Int64], since: Date, sample: Int = 20, concurrency: Int = 4, html: String? = nil,
        json: Bool = false
    ) {
        self.target = target
        self.ids = ids
        self.since = since
        self.sample = sample
        self.concurrency = concurrency
        self.html = html
        self.json = json
    }
}

extension ReplayRunner {
    /// `inspect replay --against TARGET [IDS | --since TIME] [--sample N]`: the cost estimate and a y/N
    /// question (`confirm` nil: `--yes`), then each exchange sent again to the target, `concurrency` at a time,
    /// each recorded as a replay of its original; then the comparison, as a table, JSON or an HTML page.
    public func against(_ request: ReplayAgainstRequest, confirm: (@Sendable (TerminalText) -> Bool)?) async
        -> ExitStatus
    {
        let diagnostics = context.diagnostics
        guard let store = await context.recorder?.openedStore() else {
            diagnostics.write("error: the inspector store is not available, so there is nothing to replay\n")
            return .usage
        }
        let target: ReplayTarget
        let candidates: [ReplayCandidate]
        do {
            let catalog = try ProviderCatalog.load(environment: context.environment)
            target = try ReplayTarget(parsing: request.target, catalog: catalog)
            candidates = try await store.replayCandidates(
                ids: request.ids, since: request.since, sample: request.sample)
        } catch let error as SettingError {
            return ErrorReport.write(ConsoleError(error.message, exitStatus: .usage), to: diagnostics)
        } catch let error as ReplayCandidateError {
            return ErrorReport.write(ConsoleError(error.description, exitStatus: .usage), to: diagnostics)
        } catch {
            diagnostics.write("error: cannot read \(store.path): \(error)\n")
            return .apiError
        }
        guard !candidates.isEmpty else {
            context.output.write("No completed /responses exchanges to replay in that time.\n")
            return .success
        }
        let estimate = ReplayComparison.estimate(candidates, model: target.model, prices: .shipped)
        let plural = candidates.count == 1 ? "" : "s"
        var plan =
            "Replay \(candidates.count) exchange\(plural) against \(target.words), \(request.concurrency) at a time: "
        plan += String(format: "about $%.4f", estimate.usd)
        if estimate.unpriced > 0 {
            plan += " (\(estimate.unpriced) with no price: no tokens on record or no price for the model)"
        }
        plan += ", from the originals' tokens at the target's prices."
        if let confirm {
            guard confirm(TerminalText(composed: TerminalText.clean(plan) + " Go on? [y/N] ")) else {
                context.output.write("Nothing was sent.\n")
                return .success
            }
        } else {
            diagnostics.write(plan + "\n")
        }
        // This run's replays are the ones recorded after it began (an earlier run's are not taken for them).
        let before = (try? await store.lastExchangeID()) ?? 0
        let outcomes = await replayAll(candidates, target: target, concurrency: request.concurrency)
        await context.recorder?.waitUntilIdle()
        var rows: [ReplayComparison.Row] = []
        for (candidate, var outcome) in zip(candidates, outcomes) {
            outcome.exchangeID = try? await store.latestReplay(of: candidate.id, after: before)
            rows.append(ReplayComparison.Row(original: candidate, replay: outcome, similarity: nil))
        }
        let similarity = AnswerSimilarity.builtIn(modelFolder: modelFolder)
        let answered = rows.indices.filter { rows[$0].replay.error == nil }
        do {
            let scores = try await similarity.scores(
                answered.map { (rows[$0].original.answer, rows[$0].replay.answer) })
            for (index, score) in zip(answered, scores) { rows[index].similarity = score }
        } catch {
            diagnostics.write("warning: the answers could not be compared: \(error)\n")
        }
        let comparison = ReplayComparison(target: target.words, measure: similarity.measure, rows: rows)
        return write(comparison, request: request)
    }

    /// Each candidate sent to the target, at most `concurrency` at once; the outcomes in the candidates' order.
    func replayAll(_ candidates: [ReplayCandidate], target: ReplayTarget, concurrency: Int) async
        -> [ReplayComparison.Outcome]
    {
        // One context per provider the replays go to (made before the tasks: a context is not made concurrently).
        var contexts: [String: ConsoleContext] = [:]
        var failures: [String: String] = [:]
        for name in Set(candidates.map { target.provider ?? $0.provider ?? context.providerName }) {
            if name == context.providerName {
                contexts[name] = context
            } else {
                do { contexts[name] = try context.forProvider(name) } catch { failures[name] = error.message }
            }
        }
        var outcomes = [ReplayComparison.Outcome](repeating: ReplayComparison.Outcome(), count: candidates.count)
        await withTaskGroup(of: (Int, ReplayComparison.Outcome).self) { group in
            var next = 0
            func start() {
                guard next < candidates.count else { return }
                let index = next
                let candidate = candidates[index]
                let name = target.provider ?? candidate.provider ?? context.providerName
                let made = contexts[name]
                let failure = failures[name]
                group.addTask {
                    (index, await Self.replay(candidate, target: target, on: made, provider: name, failure: failure))
                }
                next += 1
            }
            for _ in 0..<max(1, concurrency) { start() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                start()
            }
        }
        for (name, made) in contexts where name != context.providerName { await made.shutdown() }
        return outcomes
    }

    static func replay(
        _ candidate: ReplayCandidate, target: ReplayTarget, on made: ConsoleContext?, provider: String,
        failure: String?
    ) async -> ReplayComparison.Outcome {
        guard let made else {
            return ReplayComparison.Outcome(error: "provider \(provider): \(failure ?? "unavailable")")
        }
        guard let body = target.body(replacing: candidate.body), let (_, path) = split(candidate.url) else {
            return ReplayComparison.Outcome(error: "the recorded request is not a JSON /responses body")
        }
        if provider != candidate.provider ?? made.providerName,
            let previous = (try? JSONValue.parse(body))?["previous_response_id"]?.stringValue
        {
            return ReplayComparison.Outcome(
                error: "not sent: it continues \(previous) (previous_response_id), which is on the original server")
        }
        // The provider's own base URL, never one read from the store: the key goes only where it is configured.
        let client = made.client
        var exchange = ExchangeContext(preset: candidate.preset, replayOf: candidate.id)
        exchange.labels["provider"] = provider
        let start = ContinuousClock.now
        do {
            let (json, _) = try await client.send(method: "POST", path: path, body: body, context: exchange)
            return ReplayComparison.Outcome(
                response: json, durationMs: (ContinuousClock.now - start).milliseconds, prices: .shipped)
        } catch {
            return ReplayComparison.Outcome(error: error.message)
        }
    }

    /// Where the built-in model is, for comparing answers: as the library finds it.
    var modelFolder: String {
        let options = (try? LibraryOptions.configured(environment: context.environment)) ?? LibraryOptions()
        return options.modelFolder(dataDirectory: context.environment.dataDirectory)
    }
}
