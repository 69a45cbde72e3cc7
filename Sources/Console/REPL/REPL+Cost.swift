import Foundation
import ResponsesAPI
import Workbench

/// `/cost [TEXT]` (the next request's input tokens and their estimated cost, without sending it) and
/// `/usage` (this session's tokens and estimated cost by model).
extension REPL {
    func costCommand(_ text: String) {
        let composed: ComposedRequest
        do {
            composed = try session.preview(.string(text))
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
            return
        }
        let client = context.client
        let labels = ExchangeContext(labels: ["preset": settings.preset].compactMapValues { $0 })
        let (result, interrupted) = bridge.run { () async -> Result<CostEstimate, ResponsesAPIError> in
            do throws(ResponsesAPIError) {
                return .success(try await CostEstimate.count(composed.request, client: client, context: labels))
            } catch {
                return .failure(error)
            }
        }
        if interrupted { return context.diagnostics.write("[interrupted]\n") }
        switch result {
        case .success(let estimate):
            context.output.write(
                (text.isEmpty ? "The conversation so far, with an empty message. " : "") + estimate.line)
        case .failure(let error):
            context.diagnostics.write("error: cannot count the input tokens: \(error.message)\n")
        }
    }

    func usageCommand() {
        context.output.write(spending.table)
    }
}
