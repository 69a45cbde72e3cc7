import Foundation
import ResponsesAPI
import Untrusted
import Workbench

extension EvalRunner {
    /// The stored run `id` (`evals/ID.json` in the data directory): the id is checked to be a run's id, and
    /// only then made a file's name; one that is not, names no run, or whose file is not that run's JSON, is a
    /// usage error (before anything is sent).
    func storedRun(_ id: String) throws(EvalBaselineError) -> JSONValue {
        guard EvalComparison.isRunID(id) else {
            throw EvalBaselineError(
                "'\(TerminalText.cleanSingleLine(id))' is not a run's id (as 20261129T074501Z-3f9a1c; ls the data directory's evals/)"
            )
        }
        let path = context.environment.dataDirectory.appendingPathComponent("evals/\(id).json").path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EvalBaselineError("no run \(id) (no \(path))")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(data))
        } catch {
            throw EvalBaselineError("\(path) is not JSON: \(error.message)")
        }
        guard json["run"]?.stringValue == id, json["cases"]?.arrayValue != nil else {
            throw EvalBaselineError("\(path) is not run \(id)'s JSON (no run \(id), or no cases)")
        }
        return json
    }

    /// What changed since the baseline: each column's pass rate then and now, what regressed (with what
    /// failed now) and what got better; the suite's ids and the model's text cleaned to one line.
    static func comparisonText(_ comparison: EvalComparison) -> TerminalText {
        var lines = ["", "against run \(TerminalText.cleanSingleLine(comparison.baseline)):"]
        for column in comparison.columns {
            let name = TerminalText.cleanSingleLine(column.column)
            let before = column.baselinePassRate.map { String(format: "%.0f%%", $0 * 100) } ?? "not in the baseline"
            var line = "  \(name): \(before) → \(String(format: "%.0f%%", column.passRate * 100))"
            if column.regressed > 0 { line += ", \(column.regressed) of \(column.compared) regressed" }
            if column.overLimit {
                line += String(format: " (more than the %.0f%% allowed)", comparison.maxRegression * 100)
            }
            lines.append(line)
        }
        func head(_ change: EvalComparison.Change) -> String {
            "    \(TerminalText.cleanSingleLine(change.caseID)) [\(TerminalText.cleanSingleLine(change.column))]"
                + (change.attempt > 1 ? " (repeat \(change.attempt))" : "")
        }
        if !comparison.regressions.isEmpty {
            lines.append("  regressed (passed in the baseline, fails now):")
            for change in comparison.regressions {
                lines.append(head(change))
                for failure in change.failures {
                    lines.append(
                        "      \(TerminalText.cleanSingleLine(failure.assertion)): \(TerminalText.cleanSingleLine(failure.seen))"
                    )
                }
            }
        }
        if !comparison.improvements.isEmpty {
            lines.append("  got better (failed in the baseline, passes now):")
            lines += comparison.improvements.map(head)
        }
        if comparison.regressions.isEmpty, comparison.improvements.isEmpty { lines.append("  no case changed") }
        if comparison.unmatched > 0 { lines.append("  \(comparison.unmatched) call(s) not in the baseline") }
        lines.append(comparison.exceeded ? "regressed: exit status 1" : "no column regressed beyond the limit")
        return TerminalText(composed: lines.joined(separator: "\n") + "\n")
    }
}
