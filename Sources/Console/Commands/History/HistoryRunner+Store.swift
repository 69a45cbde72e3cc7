import Foundation
import Inspector
import ResponsesAPI

/// Opening the store and finding a conversation by its id or an id's first characters.
extension HistoryRunner {
    /// Runs `body` on the inspector store; with none yet, `empty` is the answer (nil: an error, for
    /// commands that name a conversation).
    func withStore(empty: String?, _ body: (InspectorStore) async throws -> ExitStatus) async -> ExitStatus {
        guard FileManager.default.fileExists(atPath: context.environment.inspectorPath) else {
            guard let empty else {
                context.diagnostics.write(
                    "error: nothing is recorded yet (no inspector store at \(context.environment.inspectorPath))\n")
                return .usage
            }
            context.output.write(empty)
            return .success
        }
        do {
            let store = try ConsoleContext.openStore(environment: context.environment, diagnostics: context.diagnostics)
            return try await body(store)
        } catch let error as ConsoleError {
            return ErrorReport.write(error, to: context.diagnostics)
        } catch {
            context.diagnostics.write("error: the inspector at \(context.environment.inspectorPath): \(error)\n")
            return .apiError
        }
    }

    /// The conversation `id` (its first characters are enough when only one id starts with them), read
    /// whole; an unknown or ambiguous id is an error naming it.
    func withConversation(
        _ id: String, _ body: (ConversationExport, SessionSummary, InspectorStore) async throws -> ExitStatus
    ) async -> ExitStatus {
        await withStore(empty: nil) { store in
            let found = try await store.sessions(prefix: id, limit: 2)
            guard let summary = found.first else {
                context.diagnostics.write(
                    "error: no conversation \(id) in the inspector (openresponses history list shows them)\n")
                return .usage
            }
            if found.count > 1, summary.id != id {
                context.diagnostics.write(
                    "error: \(id) starts more than one conversation's id (\(found.map { String($0.id.prefix(12)) }.joined(separator: ", ")), ...); give more of it\n"
                )
                return .usage
            }
            var export = ConversationExport(
                session: summary.id, exchanges: try await store.exchanges(inSession: summary.id))
            let responses = export.turns.compactMap(\.exchange.responseId)
            for calls in try await store.toolCalls(forResponses: responses).values {
                for call in calls { export.toolCalls[call.callID] = call }
            }
            return try await body(export, summary, store)
        }
    }

    func write(_ sessions: [SessionSummary], json: Bool, empty: String) {
        if json {
            context.output.write(
                JSONValue.array(
                    sessions.map { session in
                        .object([
                            "id": .string(session.id), "first_at": .string(InspectorStore.timestamp(session.firstAt)),
                            "last_at": .string(InspectorStore.timestamp(session.lastAt)),
                            "exchanges": .integer(session.turns),
                            "first_input": session.firstInput.map(JSONValue.string) ?? .null,
                            "last_response_id": session.lastResponseID.map(JSONValue.string) ?? .null,
                        ])
                    }
                ).prettyPrinted() + "\n")
            return
        }
        guard !sessions.isEmpty else {
            context.output.write(empty)
            return
        }
        var rows = [["ID", "LAST", "EXCHANGES", "FIRST INPUT"]]
        for session in sessions {
            rows.append([
                String(session.id.prefix(8)), ConversationExport.time(session.lastAt), String(session.turns),
                ConsoleSessionDelegate.clip(session.firstInput ?? "", 60),
            ])
        }
        context.output.write(InspectorPresenter.render(rows))
    }
}
