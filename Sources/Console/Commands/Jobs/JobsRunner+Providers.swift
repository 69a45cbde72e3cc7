import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// Which server a job lives on. A background response exists on the server that created it, so `jobs`,
/// `attach` and `cancel` ask that server with its own key: the ledger names the provider each job was sent
/// to, and a job of another provider than the command's is reached through a context made for it.
extension JobsRunner {
    /// Where a listed job can be asked about: a client, or why none (said in its status column).
    enum JobServer {
        case client(ResponsesClient)
        case unusable(String)
    }

    /// The ledger's entry for response `id`, when the inspector has one.
    func ledgerEntry(for id: String) async -> LedgerEntry? {
        guard FileManager.default.fileExists(atPath: context.environment.inspectorPath),
            let store = try? ConsoleContext.openStore(
                environment: context.environment, diagnostics: context.diagnostics)
        else { return nil }
        return try? await store.ledger(type: LedgerEntry.Kind.response.rawValue, includingDeleted: true).last {
            $0.objectId == id
        }
    }

    /// Runs `body` against the server job `id` lives on: this context's unless `pinned` is false and the
    /// ledger says the job went to another provider, whose context is made (and shut down afterwards).
    /// The job's provider is said on diagnostics when it is not this command's.
    func onJobServer(_ id: String, pinned: Bool, _ body: (JobsRunner) async -> ExitStatus) async -> ExitStatus {
        guard !pinned, let entry = await ledgerEntry(for: id), let provider = entry.provider,
            provider != context.providerName
        else {
            return await body(self)
        }
        do {
            return try await context.withProvider(provider) { other in
                context.diagnostics.write(
                    "note: \(id) was created on provider \(provider) (\(other.configuration.baseURL)); asking it there\n"
                )
                return await body(JobsRunner(context: other))
            }
        } catch {
            context.diagnostics.write(
                "error: \(id) was created on provider \(provider), which cannot be used: \(error.message)\n")
            return error.exitStatus
        }
    }

    /// The client that can ask about `entry`, from `contexts` (made on first use, by provider name), or why
    /// there is none: the job's provider is unusable, or the server at its URL is not the provider's now.
    func client(for entry: LedgerEntry, contexts: inout [String: ConsoleContext]) -> JobServer {
        let provider = entry.provider ?? ProviderCatalog.defaultName
        let jobContext: ConsoleContext
        if provider == context.providerName {
            jobContext = context
        } else if let made = contexts[provider] {
            jobContext = made
        } else {
            do {
                jobContext = try context.forProvider(provider)
            } catch {
                return .unusable("on \(provider): \(error.message)")
            }
            contexts[provider] = jobContext
        }
        guard jobContext.configuration.baseURL == entry.baseUrl else { return .unusable("on \(entry.baseUrl)") }
        return .client(jobContext.client)
    }
}
