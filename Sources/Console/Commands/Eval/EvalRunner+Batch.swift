import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// `eval --batch`: the calls through the Batch API at half the price, one batch a provider. Each is composed as a
/// live call is, submitted, followed to its end with `batch wait`'s progress line, and its results matched back
/// by `custom_id`; each result is recorded as an exchange of its batch and of the run. Library cases, and judges'
/// calls, are answered live. No call's latency is known through the Batch API: `max_latency_ms` is not checked.
/// The calls' presets are in the run, not on their exchanges (a batch's results share its record's).
extension EvalRunner {
    /// Throws `CancellationError` when Ctrl-C stopped the waiting: the batches go on, and `run` says how to follow
    /// them.
    func runBatched(
        _ calls: [Call], contexts: [EvalColumn: ConsoleContext], runID: String, checker: EvalChecker,
        request: EvalRequest
    ) async throws -> [EvalResult] {
        var observations = [EvalObservation?](repeating: nil, count: calls.count)
        // One batch for each provider's context, in the order the calls first name it.
        var groups: [(made: ConsoleContext, indices: [Int])] = []
        for index in calls.indices where !calls[index].item.library {
            let made = contexts[calls[index].column] ?? context
            if let at = groups.firstIndex(where: { $0.made === made }) {
                groups[at].indices.append(index)
            } else {
                groups.append((made, [index]))
            }
        }
        var submitted: [(made: ConsoleContext, batch: BatchObject, ids: [String: Int])] = []
        for group in groups {
            var bodies: [(id: String, body: JSONObject)] = []
            var ids: [String: Int] = [:]
            for index in group.indices {
                let call = calls[index]
                do {
                    let body = try Self.compose(
                        SessionOptions(model: call.column.model, preset: call.column.preset),
                        variables: call.item.variables, input: call.item.input, on: group.made)
                    let id = "call-\(index + 1)"
                    bodies.append((id, body))
                    ids[id] = index
                } catch {
                    observations[index] = EvalObservation(answer: "", latencyMs: 0, error: ErrorReport.message(error))
                }
            }
            guard !bodies.isEmpty else { continue }
            do {
                let batch = try await BatchRunner(context: group.made).submit(
                    bodies: bodies, input: "eval run \(runID)", preset: nil, metadata: ["openresponses_eval": runID])
                context.diagnostics.write(
                    "batch \(batch.id): \(bodies.count) calls of run \(runID) on \(group.made.providerName) "
                        + "(openresponses batch wait \(batch.id) follows it from elsewhere)\n")
                submitted.append((group.made, batch, ids))
            } catch {
                for index in ids.values {
                    observations[index] = EvalObservation(
                        answer: "", latencyMs: 0, error: "the batch was not made: \(ErrorReport.message(error))")
                }
            }
        }
        for (made, batch, ids) in submitted {
            for (index, observation) in await results(of: batch, ids: ids, on: made, runID: runID, request: request) {
                observations[index] = observation
            }
        }
        if Task.isCancelled {
            // Ctrl-C: nothing is checked or kept (a run of calls never answered would make a false baseline).
            for (_, batch, _) in submitted {
                context.diagnostics.write(
                    "Stopped waiting for \(batch.id); it goes on on the server (openresponses batch wait \(batch.id), "
                        + "then batch results \(batch.id)).\n")
            }
            throw CancellationError()
        }
        // Every answer checked (judges' calls live); library cases answered live, as without --batch.
        return await runAll(
            calls, contexts: contexts, runID: runID, checker: checker, concurrency: request.concurrency,
            observed: observations)
    }

    /// The batch followed to its end, and each call's observation from its result (an error for a call with none).
    /// Only what a check needs is kept of each result, and only for this batch's calls.
    private func results(
        of batch: BatchObject, ids: [String: Int], on made: ConsoleContext, runID: String, request: EvalRequest
    ) async -> [(Int, EvalObservation)] {
        let runner = BatchRunner(context: made)
        var found: [Int: EvalObservation] = [:]
        var ended = batch
        var failure: String?
        // What the calls waited (the batch's turnaround), kept but never shown as a call's latency.
        let started = ContinuousClock.now
        do {
            ended = try await runner.follow(id: batch.id, interval: request.batchInterval)
            _ = try await runner.eachResult(of: ended, labels: ["eval": runID]) { result, _ in
                guard let index = ids[result.customID] else { return }
                var observation = Self.observation(of: result.response ?? .null, latencyMs: 0, batch: batch.id)
                if !result.succeeded { observation.error = result.errorMessage ?? "the request failed" }
                found[index] = observation
            }
            if ended.status == "failed" {
                failure = "the batch failed: " + (ended.errorMessages.first ?? "the server gave no reason")
            }
        } catch {
            failure = ErrorReport.message(error)
        }
        let waited = (ContinuousClock.now - started).milliseconds
        return ids.map { _, index in
            guard var observation = found[index] else {
                let reason = failure ?? "no result: the batch \(ended.status)"
                return (index, EvalObservation(answer: "", latencyMs: 0, error: reason))
            }
            observation.latencyMs = waited
            return (index, observation)
        }
    }
}
