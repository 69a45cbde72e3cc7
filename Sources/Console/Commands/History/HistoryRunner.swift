import Foundation
import Inspector
import Markdown
import ResponsesAPI
import Untrusted
import Workbench

/// `openresponses history list|show|search|export|delete`: past conversations, from the inspector's
/// records of each console session.
public struct HistoryRunner: Sendable {
    public enum Format: String, Sendable, CaseIterable { case md, json }

    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    public func list(limit: Int, json: Bool) async -> ExitStatus {
        await withStore(empty: json ? "[]\n" : "No conversations recorded yet.\n") { store in
            let sessions = try await store.sessions(limit: limit)
            write(sessions, json: json, empty: "No conversations recorded yet.\n")
            return .success
        }
    }

    public func search(_ words: String, limit: Int, json: Bool) async -> ExitStatus {
        await withStore(empty: json ? "[]\n" : "No conversations recorded yet.\n") { store in
            let sessions = try await store.sessions(search: words, limit: limit)
            write(sessions, json: json, empty: "No conversation mentions \(words).\n")
            return sessions.isEmpty ? .apiError : .success
        }
    }

    /// The conversation as Markdown: rendered on a terminal, the Markdown itself to a pipe.
    public func show(_ id: String) async -> ExitStatus {
        await withConversation(id) { export, _, _ in
            let markdown = export.markdown
            // The config file's console settings (console.markdown) apply, as in the console.
            let settings =
                (try? SettingsStack.load(
                    environment: context.environment, preset: nil, flags: SettingsLayer(label: "flags")))?.effective
                ?? TurnSettings(model: "")
            let options = RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings)
            if (context.output as? FileDescriptorOutput)?.isTerminal == true, options.markdown {
                var renderer = MarkdownRenderer(
                    options: .init(width: options.width ?? 80, colors: options.colors, hyperlinks: options.hyperlinks))
                // The renderer shows the conversation's control characters as pictures itself: its output is its own.
                context.output.write(TerminalText(composed: renderer.feed(markdown) + renderer.finish()))
            } else {
                context.output.write(markdown)
            }
            return .success
        }
    }

    /// Writes the conversation as Markdown or JSON to `path` (stdout when nil).
    public func export(_ id: String, format: Format, to path: String?) async -> ExitStatus {
        await withConversation(id) { export, summary, _ in
            let text = format == .md ? export.markdown : export.json.prettyPrinted() + "\n"
            guard let path else {
                context.output.write(text)
                return .success
            }
            let url: URL
            do throws(ConsoleError) {
                url = try OutputFile.write(text, to: path)
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
            context.diagnostics.write(
                "Wrote \(summary.id.prefix(8)) (\(export.turns.count) request\(export.turns.count == 1 ? "" : "s")) to \(url.path).\n"
            )
            return .success
        }
    }

    /// Deletes the conversation's records here; with `server`, first its stored responses and its
    /// Conversations API conversation on the server each turn was sent to (the provider the inspector
    /// recorded, unless `pinned`: `--provider` names one), asking first (`ask`; nil: `--yes`).
    public func delete(_ id: String, server: Bool, pinned: Bool = false, ask: (@Sendable (TerminalText) async -> Bool)?)
        async -> ExitStatus
    {
        await withConversation(id) { export, summary, store in
            if server {
                let groups = serverObjects(export, pinned: pinned)
                let responses = groups.reduce(0) { $0 + $1.responses.count }
                let conversations = groups.reduce(0) { $0 + $1.conversations.count }
                let count =
                    "\(responses) stored response\(responses == 1 ? "" : "s")"
                    + (conversations == 0 ? "" : " and \(conversations) conversation\(conversations == 1 ? "" : "s")")
                let servers = groups.map {
                    $0.provider == context.providerName ? context.configuration.baseURL : "provider \($0.provider)"
                }
                if let ask,
                    !(await ask(
                        "Delete \(count) of \(summary.id.prefix(8)) on \(servers.joined(separator: " and "))? [y/N] "))
                {
                    context.diagnostics.write("Nothing was deleted.\n")
                    return .success
                }
                var failed = 0
                for group in groups {
                    failed += await deleteOnServer(group)
                }
                // What could not be deleted there keeps its records here, so it can be found again.
                if failed > 0 {
                    context.diagnostics.write(
                        "\(failed) could not be deleted on the server; the local records are kept.\n")
                    return .apiError
                }
            }
            let removed = try await store.deleteSession(summary.id)
            context.output.write(
                "Deleted \(summary.id.prefix(8)): \(removed) recorded exchange\(removed == 1 ? "" : "s").\n")
            return .success
        }
    }

    /// A conversation's stored responses and conversations on the server, by the provider its turns went to.
    struct ServerObjects {
        var provider: String
        var responses: [String] = []
        var conversations: [String] = []
    }

    func serverObjects(_ export: ConversationExport, pinned: Bool) -> [ServerObjects] {
        var groups: [ServerObjects] = []
        for turn in export.turns {
            let provider = pinned ? context.providerName : turn.exchange.provider ?? ProviderCatalog.defaultName
            let index =
                groups.firstIndex { $0.provider == provider }
                ?? {
                    groups.append(ServerObjects(provider: provider))
                    return groups.count - 1
                }()
            if let response = turn.exchange.responseId, !groups[index].responses.contains(response) {
                groups[index].responses.append(response)
            }
            if let conversation = turn.request["conversation"].flatMap({ $0.stringValue ?? $0["id"]?.stringValue }),
                !groups[index].conversations.contains(conversation)
            {
                groups[index].conversations.append(conversation)
            }
        }
        return groups.filter { !$0.responses.isEmpty || !$0.conversations.isEmpty }
    }

    /// Deletes one provider's objects with a context for that provider; how many could not be deleted.
    func deleteOnServer(_ group: ServerObjects) async -> Int {
        do {
            return try await context.withProvider(group.provider) { target in
                var failed = 0
                for response in group.responses {
                    failed += await deleteOnServer("response", response) {
                        () async throws(ResponsesAPIError) -> Deletion in
                        try await target.client.delete(id: response)
                    }
                }
                for conversation in group.conversations {
                    failed += await deleteOnServer("conversation", conversation) {
                        () async throws(ResponsesAPIError) -> Deletion in
                        try await target.client.deleteConversation(id: conversation)
                    }
                }
                return failed
            }
        } catch {
            let count = group.responses.count + group.conversations.count
            context.diagnostics.write(
                "error: cannot reach provider \(group.provider), where \(count) of them were created: \(error.message)\n"
            )
            return count
        }
    }

    /// Deletes one object on the server, saying so; 1 when it failed (a 404 is not a failure: it is gone).
    func deleteOnServer(_ kind: String, _ id: String, _ delete: () async throws(ResponsesAPIError) -> Deletion) async
        -> Int
    {
        do throws(ResponsesAPIError) {
            _ = try await delete()
            context.output.write("deleted \(kind) \(id)\n")
        } catch  where error.status == 404 {
            context.output.write("\(kind) \(id) was already gone\n")
        } catch {
            context.diagnostics.write("error: cannot delete \(kind) \(id): \(error.message)\n")
            return 1
        }
        return 0
    }

}
