import Foundation
import ResponsesAPI
import Workbench

/// `/compact`: the conversation replaced by the server's compaction of it; the next turn goes on from there.
extension REPL {
    func compactCommand() {
        let session = self.session
        let (result, interrupted) = bridge.run {
            () async -> (ChatSession, Result<ChatSession.Compaction, SettingError>) in
            var session = session
            do throws(SettingError) {
                let compaction = try await session.compact()
                return (session, .success(compaction))
            } catch {
                return (session, .failure(error))
            }
        }
        if interrupted { return context.diagnostics.write("[interrupted; the conversation is unchanged]\n") }
        switch result.1 {
        case .success(let compaction):
            self.session = result.0
            let tokens = compaction.usage?.inputTokens.map { " (\(SessionSpending.number($0)) tokens read)" } ?? ""
            context.output.write(
                "Compacted the conversation into \(compaction.items) item\(compaction.items == 1 ? "" : "s")\(tokens); the next turn goes on from them.\n"
            )
        case .failure(let error):
            ErrorReport.write(error, to: context.diagnostics)
        }
    }
}
