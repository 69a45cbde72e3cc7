import Foundation
import Inspector
import Workbench

extension ConsoleContext {
    /// Keeps the MCP calls a turn made in the inspector, with the response that asked for each (`inspect show`,
    /// `history show|export`). Nothing is kept when the inspector is off; a failure to write is said.
    func keep(_ calls: [ToolCallRecord], session: String) async {
        guard !calls.isEmpty, let store = await recorder?.openedStore() else { return }
        let now = environment.now()
        do {
            for call in calls {
                try await store.recordToolCall(
                    responseID: call.responseID, callID: call.callID, session: session, server: call.plan.server,
                    tool: call.plan.tool, arguments: call.arguments, result: call.result, status: call.status.rawValue,
                    durationMs: call.duration.milliseconds, at: now)
            }
        } catch {
            diagnostics.write("warning: the turn's MCP calls could not be kept in \(store.path): \(error)\n")
        }
    }
}
