import Foundation
import Inspector
import ResponsesAPI
import Untrusted

/// `ledger verify` and `ledger gc`: each object of this server asked for or deleted in turn; a failure is
/// reported and the next one goes on.
extension LedgerRunner {
    public func verify(_ filter: Filter) async -> ExitStatus {
        await onThisServer(filter) { entries, store in
            var gone = 0
            var failed = 0
            for entry in entries {
                do {
                    _ = try await context.client.send(method: "GET", path: entry.path)
                    context.output.write("\(entry.objectId) \(entry.type): exists\n")
                } catch let error as ResponsesAPIError where error.status == 404 {
                    try? await store.markDeleted(entry.objectId, at: context.environment.now())
                    context.output.write("\(entry.objectId) \(entry.type): gone (marked deleted)\n")
                    gone += 1
                } catch {
                    context.diagnostics.write(
                        "\(entry.objectId) \(entry.type): error: \((error as? ResponsesAPIError)?.message ?? "\(error)")\n"
                    )
                    failed += 1
                }
            }
            context.output.write(
                "\(entries.count - gone - failed) exist, \(gone) gone, \(failed) could not be checked.\n")
            return failed == 0 ? .success : .apiError
        }
    }

    /// Deletes the objects `filter` selects; `ask` answers the question (nil: `--yes`, or no terminal to ask).
    public func gc(_ filter: Filter, dryRun: Bool, ask: (@Sendable (TerminalText) async -> Bool)?) async -> ExitStatus {
        await onThisServer(filter) { entries, store in
            guard !entries.isEmpty else {
                context.output.write("Nothing to delete.\n")
                return .success
            }
            if dryRun {
                for entry in entries {
                    context.output.write(
                        "would delete \(entry.type) \(entry.objectId)\(entry.label.map { " (\($0))" } ?? "")\n")
                }
                context.output.write(
                    "\(entries.count) to delete on \(context.configuration.baseURL); nothing was deleted (--dry-run).\n"
                )
                return .success
            }
            if let ask,
                !(await ask(
                    "Delete \(entries.count) object\(entries.count == 1 ? "" : "s") on \(context.configuration.baseURL)? [y/N] "
                ))
            {
                context.output.write("Nothing was deleted.\n")
                return .success
            }
            var deleted = 0
            var failed = 0
            for entry in entries {
                do {
                    _ = try await context.client.send(method: entry.deletion.method, path: entry.deletion.path)
                    context.output.write(
                        entry.kind == .batch
                            ? "cancelled batch \(entry.objectId) (its files are deleted as files)\n"
                            : "deleted \(entry.type) \(entry.objectId)\n")
                    deleted += 1
                } catch let error as ResponsesAPIError where entry.kind == .batch && [400, 409].contains(error.status) {
                    // A batch that has ended cannot be cancelled, nor deleted: forgotten, its files deleted apart.
                    context.output.write("batch \(entry.objectId) had ended; forgotten\n")
                    deleted += 1
                } catch let error as ResponsesAPIError where error.status == 404 {
                    context.output.write("\(entry.type) \(entry.objectId) was already gone\n")
                    deleted += 1
                } catch {
                    context.diagnostics.write(
                        "\(entry.type) \(entry.objectId): error: \((error as? ResponsesAPIError)?.message ?? "\(error)")\n"
                    )
                    failed += 1
                    continue
                }
                try? await store.markDeleted(entry.objectId, at: context.environment.now())
            }
            context.output.write("Deleted \(deleted), failed \(failed).\n")
            return failed == 0 ? .success : .apiError
        }
    }

    /// Runs `body` over the selected objects that live on this context's server; the others are named.
    private func onThisServer(
        _ filter: Filter, _ body: ([LedgerEntry], InspectorStore) async -> ExitStatus
    ) async -> ExitStatus {
        let all: [LedgerEntry]
        let store: InspectorStore
        do { (all, store) = try await entries(filter) } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        let here = context.configuration.baseURL
        let elsewhere = Dictionary(grouping: all.filter { $0.baseUrl != here }, by: \.baseUrl)
        for (server, entries) in elsewhere.sorted(by: { $0.key < $1.key }) {
            context.diagnostics.write(
                "note: \(entries.count) on \(server) left alone (run with --provider for that server)\n")
        }
        return await body(all.filter { $0.baseUrl == here }, store)
    }
}
