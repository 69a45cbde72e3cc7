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

    /// Runs `body` against the server job `id` lives on (`ConsoleContext.onServer`).
    func onJobServer(_ id: String, pinned: Bool, _ body: (JobsRunner) async -> ExitStatus) async -> ExitStatus {
        await context.onServer(of: id, kind: .response, pinned: pinned) { await body(JobsRunner(context: $0)) }
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
