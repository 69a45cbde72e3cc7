import Foundation
import ResponsesAPI
import Workbench

/// What the console does when a response ends in calls it must answer: function calls run their local
/// handlers (after a yes, unless the tool is trusted), MCP approval requests are put to the user. The
/// results are the next request's input.
extension REPL {
    func toolResults(for response: Response) -> [JSONValue] {
        var results: [JSONValue] = []
        let tools = settings.template["tools"]?.arrayValue ?? []
        for item in response.output {
            switch item {
            case .functionCall(let call):
                let outcome = runFunction(call, tools: tools)
                results.append(["type": "function_call_output", "call_id": .string(call.callID), "output": .string(outcome.resultText)])
            case .mcpApprovalRequest(let request):
                let approve = confirm("Allow \(request.serverLabel) to run \(request.name)(\(Self.clip(request.arguments, 200)))? [y/N] ")
                results.append([
                    "type": "mcp_approval_response", "approval_request_id": .string(request.json["id"]?.stringValue ?? ""),
                    "approve": .bool(approve),
                ])
                context.output.write(approve ? "[approved]\n" : "[denied]\n")
            default:
                break
            }
        }
        return results
    }

    func runFunction(_ call: OutputItem.FunctionCall, tools: [JSONValue]) -> HandlerRunner.Outcome {
        let declared = tools.first { $0["type"]?.stringValue == "function" && $0["name"]?.stringValue == call.name }
        guard let declared else {
            context.diagnostics.write("[function \(call.name) is not declared by the settings in use; the model is told so]\n")
            return .failed("no function named \(call.name) is available")
        }
        guard let handler = HandlerRunner.Handler(tool: declared) else {
            context.diagnostics.write("[function \(call.name) has no local handler; the model is told so]\n")
            return .failed("the function \(call.name) has no handler in this console")
        }
        if !handler.trusted {
            guard confirm("Run \(call.name)(\(Self.clip(call.arguments, 200)))? [y/N] ") else {
                context.output.write("[not run]\n")
                return .failed("the user declined to run \(call.name)")
            }
        }
        let arguments = call.arguments
        let (outcome, interrupted) = bridge.run { HandlerRunner().run(handler, arguments: arguments) }
        if interrupted { return .failed("the user interrupted \(call.name)") }
        switch outcome {
        case .output(let text): context.output.write("[\(call.name) → \(Self.clip(text, 200))]\n")
        case .failed(let message): context.diagnostics.write("[\(call.name) failed: \(message)]\n")
        }
        return outcome
    }

    /// Asks a yes/no question at the prompt; only y or yes (any case) is yes. Non-interactive input reads
    /// the next line the same way.
    func confirm(_ question: String) -> Bool {
        switch editor.readLine(prompt: question) {
        case .line(let answer): ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        default: false
        }
    }

    static func clip(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
