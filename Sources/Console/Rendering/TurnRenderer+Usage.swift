import Foundation
import Markdown
import ResponsesAPI
import Untrusted

/// The `[usage]` line after an answer: tokens (cached, reasoning), time to the first token, the total, the cost.
extension TurnRenderer {
    func usageLine(_ usage: Usage, cost: Double? = nil) -> String {
        func number(_ value: Int?) -> String { value.map { $0.formatted(.number.grouping(.automatic)) } ?? "?" }
        var parts = [
            "input \(number(usage.inputTokens))"
                + (usage.cachedInputTokens.map { $0 > 0 ? " (cached \(number($0)))" : "" } ?? "")
        ]
        parts.append(
            "output \(number(usage.outputTokens))"
                + (usage.reasoningTokens.map { $0 > 0 ? " (reasoning \(number($0)))" : "" } ?? ""))
        let now = ContinuousClock.now
        if let firstTokenAfter { parts.append("first token \(Self.seconds(firstTokenAfter))") }
        parts.append("total \(Self.seconds(now - startedAt))")
        if let cost, let spending {
            let requests = spending.byModel.values.reduce(0) { $0 + $1.requests }
            parts.append(
                "~" + SessionSpending.dollars(cost)
                    + (requests > 1 ? " (session ~\(SessionSpending.dollars(spending.total)))" : ""))
        }
        return "[usage] " + parts.joined(separator: " · ")
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }
}
