import ResponsesAPI

/// Turns response events into terminal text as they arrive. It writes only what it knows how to show;
/// any other event (unknown ones included) is passed over without breaking the output.
public struct TurnRenderer: Sendable {
    let output: any OutputSink
    /// The output text shown so far (kept when the turn is cancelled or fails).
    public private(set) var text = ""
    private var lastCharacter: Character?

    public init(output: any OutputSink) {
        self.output = output
    }

    public mutating func render(_ event: ResponseStreamEvent) {
        switch event.kind {
        case .outputTextDelta(let delta):
            emit(delta.delta)
            text += delta.delta
        case .refusalDelta(let delta):
            emit(delta.delta)
        default:
            break
        }
    }

    /// Shows a whole response at once (non-streamed turns).
    public mutating func render(response: Response) {
        let answer = response.outputText
        emit(answer)
        text += answer
    }

    /// Ends the current line if text was written without a final newline.
    public mutating func finishLine() {
        if let lastCharacter, lastCharacter != "\n" { emit("\n") }
    }

    private mutating func emit(_ string: String) {
        guard !string.isEmpty else { return }
        output.write(string)
        lastCharacter = string.last
    }
}
