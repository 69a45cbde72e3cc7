import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// Which server an object lives on. A background response or a batch exists on the server that created it, so
/// a command about one asks that server with its own key: the ledger names the provider each was sent to, and
/// an object of another provider than the command's is reached through a context made for it.
extension ConsoleContext {
    /// The ledger's entry for object `id` of `kind`, when the inspector has one.
    func ledgerEntry(for id: String, kind: LedgerEntry.Kind) async -> LedgerEntry? {
        guard FileManager.default.fileExists(atPath: environment.inspectorPath),
            let store = try? ConsoleContext.openStore(environment: environment, diagnostics: diagnostics)
        else { return nil }
        return try? await store.ledger(type: kind.rawValue, includingDeleted: true).last { $0.objectId == id }
    }

    /// Runs `body` against the server object `id` lives on: this context unless `pinned` is false and the
    /// ledger says the object went to another provider, whose context is made (and shut down afterwards). The
    /// object's provider is said on diagnostics when it is not this command's.
    func onServer(
        of id: String, kind: LedgerEntry.Kind, pinned: Bool, _ body: (ConsoleContext) async -> ExitStatus
    ) async -> ExitStatus {
        guard !pinned, let entry = await ledgerEntry(for: id, kind: kind), let provider = entry.provider,
            provider != providerName
        else {
            return await body(self)
        }
        do {
            return try await withProvider(provider) { other in
                diagnostics.write(
                    "note: \(id) was created on provider \(provider) (\(other.configuration.baseURL)); asking it there\n"
                )
                return await body(other)
            }
        } catch {
            diagnostics.write(
                "error: \(id) was created on provider \(provider), which cannot be used: \(error.message)\n")
            return error.exitStatus
        }
    }
}
