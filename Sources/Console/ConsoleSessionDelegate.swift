import Foundation
import ResponsesAPI
import Untrusted
import Workbench

/// The console's side of a `ChatSession`: tool activity and notes as lines, and approvals by the policy
/// the command chose.
struct ConsoleSessionDelegate: ChatSessionDelegate {
    enum Approval: Sendable {
        /// `ask --yes`: every handler runs and every MCP call is allowed.
        case always
        /// Refused, with this message once per turn (`ask` without `--yes` when stdin is not a terminal).
        case refuse(String)
        /// A y/N question (the console's prompt, or the terminal `ask` runs in); only y or yes is yes.
        case ask(@Sendable (TerminalText) async -> Bool)
    }

    let output: any OutputSink
    let diagnostics: any OutputSink
    let approval: Approval

    func approve(_ request: ApprovalRequest) async -> Bool {
        switch approval {
        case .always: return true
        case .refuse(let message):
            diagnostics.write("\(message)\n")
            return false
        case .ask(let question):
            switch request {
            // The whole call on one line (a carriage return, an erase sequence, line feeds or a long run of
            // spaces in the arguments cannot hide their start, and nothing is clipped away): what is approved is
            // what is shown.
            case .function(let name, let arguments):
                return await question("Run \(TerminalText(singleLine: name))(\(Self.shown(arguments)))? [y/N] ")
            case .mcp(let server, let name, let arguments):
                return await question(
                    "Allow \(TerminalText(singleLine: server)) to run \(TerminalText(singleLine: name))(\(Self.shown(arguments)))? [y/N] "
                )
            }
        }
    }

    func report(_ event: ChatSessionEvent) {
        switch event {
        case .note(let text): diagnostics.write("note: \(text)\n")
        case .mcpApproved: output.write("[approved]\n")
        case .mcpDenied: output.write("[denied]\n")
        case .functionNotRun: output.write("[not run]\n")
        case .functionOutput(let name, let text): output.write("[\(name) → \(Self.clip(text, 200))]\n")
        case .functionFailed(let name, let message): diagnostics.write("[\(name) failed: \(message)]\n")
        case .functionUndeclared(let name):
            diagnostics.write("[function \(name) is not declared by the settings in use; the model is told so]\n")
        case .functionWithoutHandler(let name):
            diagnostics.write("[function \(name) has no local handler; the model is told so]\n")
        case .stoppedAfterToolRounds(let rounds): diagnostics.write("[stopped after \(rounds) rounds of tool calls]\n")
        case .toolOutput(let server, let tool, let text, let duration):
            output.write("[\(server) \(tool) → \(Self.clip(text, 200))] (\(Self.seconds(duration)))\n")
        case .toolFailed(let server, let tool, let message):
            diagnostics.write("[\(server) \(tool) failed: \(message)]\n")
        case .toolDeclined(let server, let tool): output.write("[\(server) \(tool): not run]\n")
        }
    }

    /// A call's arguments as an approval shows them: JSON re-serialised compactly (the whitespace between
    /// its tokens dropped, controls inside its strings escaped as JSON escapes them), then on one line.
    static func shown(_ arguments: String) -> TerminalText {
        guard let value = try? JSONValue.parse(arguments) else { return TerminalText(singleLine: arguments) }
        return TerminalText(singleLine: String(decoding: value.serialized(), as: UTF8.self))
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds < 1000 ? "\(milliseconds) ms" : String(format: "%.1f s", Double(milliseconds) / 1000)
    }

    /// `text` cut to `limit` Unicode scalars (a Character can hold any number of them).
    static func clip(_ text: String, _ limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(limit - 1))) + "…"
    }

}
