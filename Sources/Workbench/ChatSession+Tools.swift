import ResponsesAPI

/// What the session does when a response ends in calls it must answer: function calls run their local
/// handlers (after a yes, unless the tool is trusted), MCP approval requests are put to the delegate.
/// The results are the next request's input.
extension ChatSession {
    mutating func toolResults(for response: Response, delegate: some ChatSessionDelegate) async -> [JSONValue] {
        var results: [JSONValue] = []
        let tools = settings.template["tools"]?.arrayValue ?? []
        for item in response.output {
            switch item {
            case .functionCall(let call):
                if let toolSource, let (server, tool, trusted) = await toolSource.plan(for: call.name) {
                    let plan = ToolCallPlan(server: server, tool: tool, trusted: trusted)
                    let output = await runSourced(
                        call, plan: plan, in: toolSource, response: response, delegate: delegate)
                    results.append([
                        "type": "function_call_output", "call_id": .string(call.callID), "output": output,
                    ])
                    break
                }
                let outcome = await runFunction(call, tools: tools, delegate: delegate)
                results.append([
                    "type": "function_call_output", "call_id": .string(call.callID),
                    "output": .string(outcome.resultText),
                ])
            case .mcpApprovalRequest(let request):
                let approve = await delegate.approve(
                    .mcp(server: request.serverLabel, name: request.name, arguments: request.arguments))
                results.append([
                    "type": "mcp_approval_response",
                    "approval_request_id": .string(request.json["id"]?.stringValue ?? ""),
                    "approve": .bool(approve),
                ])
                delegate.report(
                    approve
                        ? .mcpApproved(server: request.serverLabel, name: request.name)
                        : .mcpDenied(server: request.serverLabel, name: request.name))
            default:
                break
            }
            if Task.isCancelled { return [] }
        }
        return results
    }

    /// A call a `ToolSource` owns: approved unless trusted, run, reported, and kept with the turn.
    mutating func runSourced(
        _ call: OutputItem.FunctionCall, plan: ToolCallPlan, in source: any ToolSource, response: Response,
        delegate: some ChatSessionDelegate
    ) async -> JSONValue {
        var record = ToolCallRecord(
            callID: call.callID, responseID: response.id, plan: plan, arguments: call.arguments, result: "",
            status: .declined, duration: .zero)
        defer { turnToolCalls.append(record) }
        if !plan.trusted {
            guard await delegate.approve(.mcp(server: plan.server, name: plan.tool, arguments: call.arguments)) else {
                delegate.report(.toolDeclined(server: plan.server, tool: plan.tool))
                record.result = "the user declined to run \(plan.tool) of \(plan.server)"
                return .string(record.result)
            }
        }
        let outcome = await source.call(plan, arguments: call.arguments)
        record.result = outcome.text
        record.status = outcome.failed ? .failed : .completed
        record.duration = outcome.duration
        if outcome.failed {
            delegate.report(.toolFailed(server: plan.server, tool: plan.tool, message: outcome.text))
        } else {
            delegate.report(
                .toolOutput(server: plan.server, tool: plan.tool, text: outcome.text, duration: outcome.duration))
        }
        return outcome.output
    }

    func runFunction(
        _ call: OutputItem.FunctionCall, tools: [JSONValue], delegate: some ChatSessionDelegate
    ) async -> HandlerRunner.Outcome {
        let declared = tools.first { $0["type"]?.stringValue == "function" && $0["name"]?.stringValue == call.name }
        guard let declared else {
            delegate.report(.functionUndeclared(name: call.name))
            return .failed("no function named \(call.name) is available")
        }
        guard let handler = HandlerRunner.Handler(tool: declared) else {
            delegate.report(.functionWithoutHandler(name: call.name))
            return .failed("the function \(call.name) has no handler in this console")
        }
        if !handler.trusted {
            guard await delegate.approve(.function(name: call.name, arguments: call.arguments)) else {
                delegate.report(.functionNotRun(name: call.name))
                return .failed("the user declined to run \(call.name)")
            }
        }
        let outcome = await handlers.run(handler, arguments: call.arguments)
        if Task.isCancelled { return .failed("the user interrupted \(call.name)") }
        switch outcome {
        case .output(let text): delegate.report(.functionOutput(name: call.name, text: text))
        case .failed(let message): delegate.report(.functionFailed(name: call.name, message: message))
        }
        return outcome
    }
}
