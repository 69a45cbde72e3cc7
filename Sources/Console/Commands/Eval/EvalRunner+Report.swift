import Foundation
import Untrusted
import Workbench

extension EvalRunner {
    /// The report for a terminal: one row per column (pass rate, cost, latency p50/p95), then each failing
    /// call with the assertions that failed and what was seen. What the suite and the model wrote is cleaned
    /// to one line of printable text.
    static func table(_ run: EvalRun) -> TerminalText {
        var lines: [String] = []
        let names = run.columns.map { TerminalText.cleanSingleLine($0.column.name) }
        let width = max(6, names.map(\.count).max() ?? 0)
        lines.append(
            "column".padded(to: width) + "  " + "passed".padded(to: 12) + "cost".padded(to: 12)
                + "p50 ms".padded(to: 10) + "p95 ms"
        )
        for (summary, name) in zip(run.columns, names) {
            let rate = String(format: "%d/%d %3.0f%%", summary.passed, summary.total, summary.passRate * 100)
            var cost = String(format: "$%.4f", summary.cost)
            if summary.unpriced > 0 { cost += "*" }
            lines.append(
                name.padded(to: width) + "  " + rate.padded(to: 12) + cost.padded(to: 12)
                    + (summary.timed == 0 ? "–" : String(format: "%.0f", summary.latencyP50)).padded(to: 10)
                    + (summary.timed == 0 ? "–" : String(format: "%.0f", summary.latencyP95)))
        }
        if run.results.contains(where: { $0.observation.batch != nil }) {
            lines.append("– through the Batch API: no call's latency is known, and max_latency_ms is not checked")
        }
        if run.columns.contains(where: { $0.unpriced > 0 }) {
            lines.append("* some calls have no price (no usage, or no price for the model)")
        }
        let failing = run.results.filter { !$0.passed }
        if !failing.isEmpty {
            lines.append("")
            lines.append("failed:")
            for result in failing {
                var head =
                    "  \(TerminalText.cleanSingleLine(result.caseID)) [\(TerminalText.cleanSingleLine(result.column.name))]"
                if result.attempt > 1 { head += " (repeat \(result.attempt))" }
                lines.append(head)
                for failure in result.failures {
                    lines.append(
                        "    \(TerminalText.cleanSingleLine(failure.assertion)): \(TerminalText.cleanSingleLine(failure.seen))"
                    )
                }
            }
        }
        let passed = run.results.filter(\.passed).count
        lines.append("")
        lines.append("\(passed) of \(run.results.count) passed (run \(run.id))")
        return TerminalText(composed: lines.joined(separator: "\n") + "\n")
    }
}
