import ResponsesAPI
import Workbench

extension TurnRenderer: TurnRendering {}

/// The one place a turn's end becomes words and an exit status, for the console and for `ask`.
extension TurnOutcome {
    /// How the words are put: the console's bracketed lines, or a script's plain ones.
    enum ReportStyle { case console, script }

    var exitStatus: ExitStatus {
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

    /// The line to show on stderr, if the turn did not simply complete.
    func report(_ style: ReportStyle) -> String? {
        if let error {
            switch (error.code, style) {
            case (.cancelled, .console): return "[cancelled — the partial answer is kept]"
            case (.cancelled, .script): return "interrupted"
            default: return "error: \(error)"
            }
        }
        guard let response else { return nil }
        switch response.status {
        case .incomplete?:
            let reason = response.incompleteReason ?? "no reason given"
            return style == .console ? "[incomplete: \(reason)]" : "incomplete: \(reason)"
        case .failed?:
            let message = response.error?.message ?? "the response failed"
            return "error: \(response.error?.code.map { "\($0): " } ?? "")\(message)"
        default:
            return nil
        }
    }
}
