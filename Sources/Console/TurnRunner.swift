import ResponsesAPI
import Workbench

/// How one turn ended.
public struct TurnOutcome: Sendable {
    /// The final response (from the terminal event, or the non-streamed body), if one arrived.
    public var response: Response?
    /// The output text shown, complete or partial.
    public var text: String
    public var error: ResponsesAPIError?
    /// The response as last announced mid-stream (`response.created`, `.in_progress`): its id and whether
    /// it runs in the background are known before it ends.
    public var partialResponse: Response? = nil

    public var wasCancelled: Bool { error?.code == .cancelled }

    public var exitStatus: ExitStatus {
        if let error {
            switch error.code {
            case .cancelled: return .interrupted
            case .configuration: return .usage
            default: return .apiError
            }
        }
        switch response?.status {
        case .incomplete?: return .incomplete
        case .failed?, .cancelled?: return .apiError
        default: return .success
        }
    }
}

/// Sends one request and renders its answer as it arrives.
public struct TurnRunner: Sendable {
    let client: ResponsesClient

    public init(client: ResponsesClient) {
        self.client = client
    }

    /// Runs the turn; `render` sees every event. Cancelling the calling task cancels the request.
    public func run(
        _ request: CreateResponseRequest, context: ExchangeContext, renderer: inout TurnRenderer
    ) async -> TurnOutcome {
        if !request.stream {
            do {
                let response = try await client.create(request, context: context)
                renderer.render(response: response)
                return TurnOutcome(response: response, text: renderer.text, error: nil)
            } catch {
                return TurnOutcome(response: nil, text: renderer.text, error: error)
            }
        }
        var final: Response?
        var latest: Response?
        do {
            for try await batch in client.streamBatches(request, context: context) {
                for event in batch {
                    renderer.render(event)
                    if let response = event.finalResponse {
                        final = response
                    } else if let response = event.response {
                        latest = response
                    }
                }
                renderer.flush()
            }
            if final == nil {
                // The iteration ended without a terminal event: the task was cancelled.
                return TurnOutcome(
                    response: nil, text: renderer.text, error: ResponsesAPIError(code: .cancelled, message: "cancelled"),
                    partialResponse: latest)
            }
            return TurnOutcome(response: final, text: renderer.text, error: nil, partialResponse: latest)
        } catch let error as ResponsesAPIError {
            return TurnOutcome(response: final, text: renderer.text, error: error, partialResponse: latest)
        } catch {
            let wrapped: ResponsesAPIError =
                error is CancellationError
                ? ResponsesAPIError(code: .cancelled, message: "cancelled", underlying: error)
                : ResponsesAPIError(code: .network, message: "\(error)", underlying: error)
            return TurnOutcome(response: final, text: renderer.text, error: wrapped, partialResponse: latest)
        }
    }
}
