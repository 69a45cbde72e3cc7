import Foundation
import Inspector

extension InspectorPresenter {
    /// The MCP calls the exchange's response asked for (`inspect show`): server, tool, arguments, how it ended
    /// and how long it took, then what came back.
    static func toolCallsText(_ calls: [ToolCallEntry]) -> String {
        var lines = ["MCP calls (\(calls.count))"]
        for call in calls {
            lines.append(
                "  \(call.server) \(call.tool)(\(call.arguments))  \(call.status) in \(milliseconds(call.durationMs))  [\(call.callID)]"
            )
            lines.append(indent(indent(call.result.isEmpty ? "(no output)" : call.result)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

}
