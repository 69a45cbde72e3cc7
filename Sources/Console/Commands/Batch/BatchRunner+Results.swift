import Foundation
import Inspector
import ResponsesAPI
import Untrusted
import Workbench

extension BatchRunner {
    /// `batch results ID [-o FILE]`: the ended batch's output and error files downloaded (kept beside its
    /// record), each result matched to its input line by `custom_id`, written as JSONL (to FILE, else stdout),
    /// and recorded by the inspector as an exchange of the batch at the batch price (once: a second run records
    /// nothing again). A request with no result (an expired or cancelled batch) is written as `not_run`.
    public func results(id: String, outputPath: String?, pinned: Bool) async -> ExitStatus {
        if let outputPath, let problem = OutputFile(outputPath).problem(path: outputPath) {
            context.diagnostics.write("error: -o \(outputPath): \(problem)\n")
            return .usage
        }
        return await onBatchServer(id, pinned: pinned) { await $0.resultsHere(id: id, outputPath: outputPath) }
    }

    func resultsHere(id: String, outputPath: String?) async -> ExitStatus {
        do {
            let batch = try Self.answering(id, await context.client.batch(id: id))
            guard batch.hasEnded else {
                context.diagnostics.write(
                    "error: batch \(id) is \(batch.status) (\(batch.completed + batch.failed)/\(batch.total) done); "
                        + "its results come when it ends (openresponses batch wait \(id))\n")
                return .apiError
            }
            await noteFiles(of: batch)
            let writer = try outputPath.map { try BatchLineWriter(path: OutputFile($0).url.path) }
            var counts: [String: Int] = [:]
            func emit(_ line: JSONValue) throws {
                counts[line["status"]?.stringValue ?? "?", default: 0] += 1
                if let writer { _ = try writer.write(line) } else { context.output.write(line.compactString + "\n") }
            }
            let (remaining, recorded) = try await eachResult(of: batch) { result, request in
                try emit(Self.resultLine(result, line: request?.line, cost: BatchResultRecording.cost(of: result)))
            }
            for missing in remaining {
                try emit([
                    "id": .string(missing.id), "line": .integer(missing.line), "status": "not_run",
                    "error": .string("no result: the batch \(batch.status)"),
                ])
            }
            try writer?.close()
            let summary = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            context.diagnostics.write(
                "batch \(batch.id) (\(batch.status)): \(summary.isEmpty ? "no results" : summary)"
                    + (outputPath.map { "; written to \($0)" } ?? "") + ".\n"
                    + "\(recorded) recorded by the inspector (openresponses inspect list --batch \(batch.id)).\n")
            return .success
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
    }

    /// Each result of the ended `batch`: its output and error files downloaded beside its record (the composed
    /// input too, from the server, when this console did not submit it), each line matched to its request
    /// (`BatchResultMatcher`), handed to `body` and recorded by the inspector as an exchange of the batch with
    /// `labels` besides (results already recorded are not again). Returns the requests no result took and how
    /// many results were recorded now.
    func eachResult(
        of batch: BatchObject, labels: [String: String] = [:],
        _ body: (BatchResultLine, (line: Int, body: [UInt8])?) throws -> Void
    ) async throws -> (remaining: [(id: String, line: Int)], recorded: Int) {
        guard let stem = Self.fileStem(batch.id) else {
            throw ResponsesAPIError(code: .decoding, message: "the server's batch id is not a name to keep files under")
        }
        let folder = try self.folder()
        let composed = folder.appendingPathComponent(stem + ".jsonl")
        if !FileManager.default.fileExists(atPath: composed.path), let input = batch.inputFileID {
            // Without it the results are still written and recorded, only not matched to lines.
            do {
                try await download(input, to: composed, limit: Self.inputLimit)
            } catch {
                context.diagnostics.write(
                    "warning: the batch's input could not be read (\(ErrorReport.message(error))); "
                        + "its results are not matched to lines\n")
            }
        }
        var files: [URL] = []
        for (file, suffix) in [(batch.outputFileID, "output"), (batch.errorFileID, "errors")] {
            guard let file else { continue }
            let url = folder.appendingPathComponent("\(stem).\(suffix).jsonl")
            try await download(file, to: url, limit: Self.outputLimit)
            files.append(url)
        }
        let record = record(of: batch.id)
        var matcher = try BatchResultMatcher(composedPath: composed.path, lines: record?.lines)
        var recording = await BatchResultRecording(
            context: context, batch: batch, preset: record?.preset, labels: labels)
        var seen: Set<String> = []
        for file in files {
            var reader = try LineReader(path: file.path)
            while let bytes = try reader.next() {
                guard let result = BatchResultLine(bytes) else {
                    context.diagnostics.write(
                        "warning: \(file.lastPathComponent):\(reader.lineNumber): not a result line\n")
                    continue
                }
                // One result a request: a repeated id is the server's mistake, said and left out.
                guard seen.insert(result.customID).inserted else {
                    context.diagnostics.write(
                        "warning: \(file.lastPathComponent):\(reader.lineNumber): a second result for "
                            + "\(TerminalText.cleanSingleLine(result.customID)), left out\n")
                    continue
                }
                let request = try matcher.take(result.customID)
                await recording.record(result, request: request?.body)
                try body(result, request)
            }
        }
        return (matcher.remaining, await recording.finish())
    }

    /// The largest input file read back (the Batch API takes 200 MB), and output or error file.
    static let inputLimit = 256 << 20
    static let outputLimit = 8 << 30

    /// Downloads file `id` to `url` (mode 0600) through a new file beside it, renamed when whole: a download
    /// cut short leaves nothing that a later run would take for the file.
    private func download(_ id: String, to url: URL, limit: Int) async throws {
        let partial = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).partial")
        try PrivateFile.write([], to: partial.path, replacing: true)
        do {
            _ = try await context.client.downloadFile(id: id, to: partial, maximumBytes: limit)
            chmod(partial.path, 0o600)
            guard rename(partial.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            unlink(partial.path)
            throw error
        }
    }

    /// A result as `batch results` writes it: the request's id and input line, how it ended, the answer's text,
    /// its usage and cost at the batch price, the error, and the server's response.
    static func resultLine(_ result: BatchResultLine, line: Int?, cost: Double?) -> JSONValue {
        let response = result.response.map(Response.init(json:))
        let status: String
        switch result.state {
        case .completed: status = "completed"
        case .incomplete: status = "incomplete"
        default: status = "failed"
        }
        return [
            "id": .string(result.customID), "line": line.map(JSONValue.integer) ?? .null, "status": .string(status),
            "output_text": response.map { .string($0.outputText) } ?? .null,
            "error": result.succeeded ? .null : .string(result.errorMessage ?? "failed"),
            "usage": result.response?["usage"] ?? .null, "cost": cost.map(JSONValue.number) ?? .null,
            "response": result.response ?? .null,
        ]
    }
}
