import Foundation
import Inspector
import ResponsesAPI
import Untrusted
import Workbench

/// `batch status`, `wait`, `list` and `cancel`: what the server says of a batch, asked of the provider the
/// ledger says it was created on (unless `--provider` pins one).
extension BatchRunner {
    public func status(id: String, json: Bool, pinned: Bool) async -> ExitStatus {
        await onBatchServer(id, pinned: pinned) { runner in
            do {
                let batch = try Self.answering(id, await runner.context.client.batch(id: id))
                await runner.noteFiles(of: batch)
                runner.context.output.write(json ? batch.json.prettyPrinted() + "\n" : Self.describe(batch.shown))
                return .success
            } catch {
                return ErrorReport.write(error, to: runner.context.diagnostics)
            }
        }
    }

    public func cancel(id: String, json: Bool, pinned: Bool) async -> ExitStatus {
        await onBatchServer(id, pinned: pinned) { runner in
            do {
                let batch = try Self.answering(id, await runner.context.client.cancelBatch(id: id)).shown
                runner.context.output.write(
                    json
                        ? batch.json.prettyPrinted() + "\n"
                        : "batch \(batch.id) is \(batch.status); what ran before the cancel is in its results.\n")
                return .success
            } catch {
                return ErrorReport.write(error, to: runner.context.diagnostics)
            }
        }
    }

    /// The server's batches, newest first (one page of `limit`).
    public func list(limit: Int, json: Bool) async -> ExitStatus {
        do {
            let page = try await context.client.listBatches(page: PageRequest(limit: limit))
            if json {
                context.output.write(JSONValue.array(page.data).prettyPrinted() + "\n")
                return .success
            }
            var text = "ID                                  STATUS        DONE/TOTAL        FAILED  CREATED\n"
            for item in page.data.map({ BatchObject(json: $0).shown }) {
                let created = item.createdAt.map(InspectorStore.timestamp) ?? "?"
                // Each column padded, and one space after it however long the server's text.
                let columns = [
                    (item.id, 36), (item.status, 14), ("\(item.completed + item.failed)/\(item.total)", 18),
                    ("\(item.failed)", 8),
                ]
                text += columns.map { $0.0.padded(to: $0.1 - 1) + " " }.joined() + created + "\n"
            }
            context.output.write(page.data.isEmpty ? "No batches on \(context.configuration.baseURL).\n" : text)
            return .success
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
    }

    /// `batch wait ID`: asks the server every `interval` until the batch has ended, with a progress line
    /// (completed / failed / total, elapsed, an estimate of what is left). It only asks: Ctrl-C, a kill or a
    /// restart lose nothing, and `wait` again picks up where the batch is. Exit 0 completed, 1 failed, expired or
    /// cancelled, 130 interrupted.
    public func wait(id: String, interval: Duration, pinned: Bool) async -> ExitStatus {
        await onBatchServer(id, pinned: pinned) { await $0.waitHere(id: id, interval: interval) }
    }

    func waitHere(id: String, interval: Duration) async -> ExitStatus {
        do throws(any Error) {
            return ended(try await follow(id: id, interval: interval))
        } catch  where (error as? ResponsesAPIError)?.code == .cancelled || error is CancellationError {
            context.diagnostics.write(
                "Stopped waiting for \(id); it goes on on the server (openresponses batch wait \(id) to wait again).\n")
            return .interrupted
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
    }

    /// Asks the server every `interval` until batch `id` has ended, with the progress line on diagnostics (in
    /// place on a terminal, a line each time it changes elsewhere); the ended batch, its files in the ledger.
    func follow(id: String, interval: Duration) async throws -> BatchObject {
        let started = ContinuousClock.now
        var progress = BatchProgress(now: context.environment.now)
        let terminal = (context.diagnostics as? FileDescriptorOutput)?.isTerminal ?? false
        var shown = ""
        // The progress line is ended on every way out.
        defer { if terminal, !shown.isEmpty { context.diagnostics.write("\n") } }
        while true {
            let batch = try Self.answering(id, await context.client.batch(id: id))
            let elapsed = ContinuousClock.now - started
            progress.observe(batch, at: elapsed)
            let line = progress.line(for: batch.shown, elapsed: elapsed)
            if terminal {
                context.diagnostics.write("\r\u{1B}[K\(line)" as TerminalText)
            } else if line != shown {
                context.diagnostics.write(line + "\n")
            }
            shown = line
            if batch.hasEnded {
                await noteFiles(of: batch)
                return batch
            }
            try await Task.sleep(for: interval)
        }
    }

    private func ended(_ fetched: BatchObject) -> ExitStatus {
        let batch = fetched.shown
        let counts =
            "\(SessionSpending.number(batch.completed)) completed, \(SessionSpending.number(batch.failed)) failed "
            + "of \(SessionSpending.number(batch.total))"
        switch batch.status {
        case "completed":
            context.output.write(
                "batch \(batch.id) completed: \(counts).\nIts results: openresponses batch results \(batch.id) -o results.jsonl\n"
            )
            return .success
        case "failed":
            let reasons = batch.errorMessages
            context.output.write(
                "batch \(batch.id) failed"
                    + (reasons.isEmpty
                        ? ".\n" : ":\n" + reasons.map { "  \(TerminalText.cleanSingleLine($0))\n" }.joined()))
            return .apiError
        default:
            context.output.write(
                "batch \(batch.id) \(batch.status): \(counts).\n"
                    + "What ran: openresponses batch results \(batch.id) -o results.jsonl\n")
            return .apiError
        }
    }

    /// `batch`, when it is the batch `asked` for: a server that answers for another is refused (its results
    /// would be matched and recorded as the other's).
    static func answering(_ asked: String, _ batch: BatchObject) throws(ResponsesAPIError) -> BatchObject {
        guard batch.id == asked else {
            throw ResponsesAPIError(
                code: .protocolViolation,
                message:
                    "asked for batch \(asked), the server answered with batch \(TerminalText.cleanSingleLine(batch.id))"
            )
        }
        return batch
    }

    /// The batch as `status` prints it.
    static func describe(_ batch: BatchObject) -> String {
        var text = "batch \(batch.id): \(batch.status)\n"
        text += "  requests  \(batch.completed) completed, \(batch.failed) failed, \(batch.total) in all\n"
        if let created = batch.createdAt { text += "  created   \(InspectorStore.timestamp(created))\n" }
        if let ended = batch.endedAt { text += "  ended     \(InspectorStore.timestamp(ended))\n" }
        if let input = batch.inputFileID { text += "  input     \(input)\n" }
        if let output = batch.outputFileID { text += "  output    \(output)\n" }
        if let errors = batch.errorFileID { text += "  errors    \(errors)\n" }
        for reason in batch.errorMessages { text += "  error     \(TerminalText.cleanSingleLine(reason))\n" }
        return text
    }

    /// The batch's output and error files in the ledger (the server made them; `ledger gc` deletes them).
    /// Only a batch this console submitted (its record kept, or the ledger has it): looking at someone else's
    /// batch does not make its files this console's to delete.
    func noteFiles(of batch: BatchObject) async {
        guard let store = await context.recorder?.openedStore() else { return }
        var ours = record(of: batch.id) != nil
        if !ours {
            let entries = (try? await store.ledger(type: LedgerEntry.Kind.batch.rawValue, includingDeleted: true)) ?? []
            ours = entries.contains { $0.objectId == batch.id && $0.baseUrl == context.configuration.baseURL }
        }
        guard ours else { return }
        for case (let id?, let what) in [(batch.outputFileID, "output"), (batch.errorFileID, "errors")] {
            do {
                try await store.noteObject(
                    id: id, kind: .file, label: "\(batch.id) \(what)", baseURL: context.configuration.baseURL,
                    provider: context.providerName, createdAt: batch.endedAt ?? context.environment.now())
            } catch {
                context.diagnostics.write(
                    "warning: the ledger does not have \(batch.id)'s \(what) file \(id): \(error)\n")
            }
        }
    }
}

extension BatchObject {
    /// The batch with the server's words (its id, status, files' ids, reasons) each made one line of printable
    /// text: for what the console writes of it, never for what it sends or stores.
    var shown: BatchObject {
        var copy = self
        copy.id = TerminalText.cleanSingleLine(id)
        copy.status = TerminalText.cleanSingleLine(status)
        copy.inputFileID = inputFileID.map(TerminalText.cleanSingleLine)
        copy.outputFileID = outputFileID.map(TerminalText.cleanSingleLine)
        copy.errorFileID = errorFileID.map(TerminalText.cleanSingleLine)
        return copy
    }
}
