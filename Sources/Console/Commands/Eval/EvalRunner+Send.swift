import Foundation
import Inspector
import Library
import ResponsesAPI
import Workbench

extension EvalRunner {
    /// One case sent in one column: the request composed as `ask` composes it (the column's preset and model
    /// over the config file, the case's variables over the preset's defaults; the input never read for
    /// `{{variables}}`), answered whole, recorded with the run's `eval` label. A library case is answered as
    /// `library ask` answers (`sendLibrary`).
    static func send(_ call: Call, on made: ConsoleContext, runID: String) async -> EvalObservation {
        if call.item.library { return await sendLibrary(call, on: made, runID: runID) }
        let options = SessionOptions(model: call.column.model, preset: call.column.preset)
        return await post(
            options, variables: call.item.variables, input: call.item.input, on: made,
            labels: labels(runID, made, preset: call.column.preset))
    }

    /// A library case: the library's passages for the case's input; with no key (the column's provider not
    /// configured), the library's answer without a model and its citations; else the question with its
    /// passages sent as the column's request, the answer's `[n]` its citations.
    static func sendLibrary(_ call: Call, on made: ConsoleContext, runID: String) async -> EvalObservation {
        let start = ContinuousClock.now
        let turn: LibraryTurn
        do {
            let options = try LibraryOptions.configured(environment: made.environment)
            let runner = LibraryRunner(
                CommandIO(environment: made.environment, output: made.output, diagnostics: made.diagnostics))
            turn = try await runner.augmenter(options, filter: .init(), client: made.client).turn(call.item.input)
        } catch {
            return EvalObservation(answer: "", latencyMs: 0, error: ErrorReport.message(error), citations: [])
        }
        guard (try? made.configuration.validate()) != nil else {
            return EvalLibraryAnswer.withoutModel(turn, latencyMs: (ContinuousClock.now - start).milliseconds)
        }
        var observation = await post(
            SessionOptions(model: call.column.model, preset: call.column.preset), variables: call.item.variables,
            input: EvalLibraryAnswer.input(turn), on: made, labels: labels(runID, made, preset: call.column.preset))
        observation.citations = EvalLibraryAnswer.citations(turn, answer: observation.answer)
        return observation
    }

    /// The judge for calls of `column`: its request composed with the judge's preset (nil: the column's preset
    /// and model) and the judgement's strict JSON format, sent through `contexts` (the judge preset's provider,
    /// else the column's), recorded with the run's label.
    static func judge(
        for column: EvalColumn, on made: ConsoleContext, contexts: [EvalColumn: ConsoleContext], runID: String
    ) -> EvalJudge.Ask {
        { input, preset in
            var options = SessionOptions(model: preset == nil ? column.model : nil, preset: preset ?? column.preset)
            options.textFormat = EvalJudge.format
            let judging = preset.flatMap { contexts[judgeColumn($0)] } ?? made
            let observation = await post(
                options, variables: [:], input: input, on: judging,
                labels: labels(runID, judging, preset: preset ?? column.preset))
            if let error = observation.error { throw EvalJudgeFailure(message: error) }
            return observation.answer
        }
    }

    /// The column a judge preset's context is kept under (the provider its preset, or the config, names).
    static func judgeColumn(_ preset: String) -> EvalColumn {
        EvalColumn(preset: preset, model: nil, provider: nil)
    }

    /// The inspector's labels of an eval call: the run and the provider.
    static func labels(_ runID: String, _ made: ConsoleContext, preset: String?) -> ExchangeContext {
        var exchange = ExchangeContext(preset: preset)
        exchange.labels["eval"] = runID
        exchange.labels["provider"] = made.providerName
        return exchange
    }

    /// What a check sees of a response (a live call's, or a batch's result's body with its `batch` id): its text,
    /// its cost (at the batch price for a batch's), its output tokens, and a failed response's error.
    static func observation(of json: JSONValue, latencyMs: Double, batch: String? = nil) -> EvalObservation {
        let response = Response(json: json)
        let usage = Usage(json: json["usage"])
        let failure =
            response.status == .failed ? (json["error"]?["message"]?.stringValue ?? "the response failed") : nil
        var observation = EvalObservation(
            answer: response.outputText, latencyMs: latencyMs,
            cost: PriceTable.shipped.cost(model: response.model, usage: usage, batch: batch != nil),
            outputTokens: usage?.outputTokens, error: failure)
        observation.batch = batch
        return observation
    }

    /// `input` composed with `options` as `ask` composes it, sent whole (`stream: false`); the answer, its
    /// latency, cost and tokens, or the error.
    static func post(
        _ options: SessionOptions, variables: [String: String], input: String, on made: ConsoleContext,
        labels exchange: ExchangeContext
    ) async -> EvalObservation {
        let body: [UInt8]
        do {
            body = JSONValue.object(try compose(options, variables: variables, input: input, on: made)).serialized()
        } catch {
            return EvalObservation(answer: "", latencyMs: 0, error: ErrorReport.message(error))
        }
        let start = ContinuousClock.now
        do {
            let (json, _) = try await made.client.send(
                method: "POST", path: "/responses", body: body, context: exchange)
            return observation(of: json, latencyMs: (ContinuousClock.now - start).milliseconds)
        } catch {
            return EvalObservation(
                answer: "", latencyMs: (ContinuousClock.now - start).milliseconds, error: error.message)
        }
    }

    /// `input` composed with `options` as `ask` composes it (the case's variables over the preset's, the input
    /// never read for them), to be answered whole: the request's body.
    static func compose(_ options: SessionOptions, variables: [String: String], input: String, on made: ConsoleContext)
        throws -> JSONObject
    {
        var stack = try options.stack(environment: made.environment)
        stack.variables = variables
        let settings = stack.effective
        let composed = try PayloadBuilder().compose(
            settings: settings, conversation: nil, input: settings.templated(.string(input)),
            for: .send(made.environment))
        var object = composed.request.body
        object["stream"] = .bool(false)
        object["background"] = nil
        object["stream_options"] = nil
        return object
    }

    /// Writes the run to `evals/<run>.json` in the data directory, mode 0600 (the folder 0700); returns its path.
    func keep(_ run: EvalRun) throws -> String {
        let folder = context.environment.dataDirectory.appendingPathComponent("evals", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The id is made here (a time and random digits), never read from the suite: it is safe as a file name.
        let path = folder.appendingPathComponent("\(run.id).json").path
        try PrivateFile.write(Array((run.json.prettyPrinted() + "\n").utf8), to: path)
        return path
    }
}

/// A judge's call that failed (HTTP, network, a failed response): its message.
struct EvalJudgeFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
