import Foundation
import Inspector
import ResponsesAPI
import Workbench

extension EvalRunner {
    /// One case sent in one column: the request composed as `ask` composes it (the column's preset and model
    /// over the config file, the case's variables over the preset's defaults; the input never read for
    /// `{{variables}}`), answered whole, recorded with the run's `eval` label.
    static func send(_ call: Call, on made: ConsoleContext, runID: String) async
        -> EvalObservation
    {
        let body: [UInt8]
        do {
            var stack = try SessionOptions(model: call.column.model, preset: call.column.preset).stack(
                environment: made.environment)
            stack.variables = call.item.variables
            let settings = stack.effective
            let composed = try PayloadBuilder().compose(
                settings: settings, conversation: nil, input: settings.templated(.string(call.item.input)),
                for: .send(made.environment))
            var object = composed.request.body
            object["stream"] = .bool(false)
            object["background"] = nil
            object["stream_options"] = nil
            body = JSONValue.object(object).serialized()
        } catch {
            return EvalObservation(answer: "", latencyMs: 0, error: ErrorReport.message(error))
        }
        var exchange = ExchangeContext(preset: call.column.preset)
        exchange.labels["eval"] = runID
        exchange.labels["provider"] = made.providerName
        let start = ContinuousClock.now
        do {
            let (json, _) = try await made.client.send(
                method: "POST", path: "/responses", body: body, context: exchange)
            let elapsed = (ContinuousClock.now - start).milliseconds
            let response = Response(json: json)
            let usage = Usage(json: json["usage"])
            let failure =
                response.status == .failed ? (json["error"]?["message"]?.stringValue ?? "the response failed") : nil
            return EvalObservation(
                answer: response.outputText, latencyMs: elapsed,
                cost: PriceTable.shipped.cost(model: response.model, usage: usage),
                outputTokens: usage?.outputTokens, error: failure)
        } catch {
            return EvalObservation(
                answer: "", latencyMs: (ContinuousClock.now - start).milliseconds, error: error.message)
        }
    }

    /// Writes the run to `evals/<run>.json` in the data directory, mode 0600 (the folder 0700); returns its path.
    func keep(_ run: EvalRun) throws -> String {
        let folder = context.environment.dataDirectory.appendingPathComponent("evals", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The id is made here (a time and random digits), never read from the suite: it is safe as a file name.
        let path = folder.appendingPathComponent("\(run.id).json").path
        let bytes = Data((run.json.prettyPrinted() + "\n").utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return path
    }
}
