import Foundation
import Workbench

/// The HTML page of a run (`eval --html FILE`): `inspector/eval.mustache` with the columns (pass rate, cost,
/// p50/p95), each call, each failing call with its assertions and what was seen, the judges' scores, and the comparison
/// with a baseline; every value escaped by Unicode scalar, the file mode 0600 (`TemplatePage`).
enum EvalPage {
    static func write(_ run: EvalRun, comparison: EvalComparison?, to path: String) throws(ConsoleError) {
        try TemplatePage.write(template: "inspector/eval.mustache", values: values(run, comparison), to: path)
    }

    static func values(_ run: EvalRun, _ comparison: EvalComparison?) -> [String: Any] {
        let columns = run.columns.map { summary -> [String: Any] in
            [
                "name": summary.column.name, "passed": "\(summary.passed)/\(summary.total)",
                "rate": String(format: "%.0f%%", summary.passRate * 100),
                "width": String(format: "%.0f", summary.passRate * 100),
                "cost": String(format: "$%.4f", summary.cost) + (summary.unpriced > 0 ? "*" : ""),
                "p50": summary.timed == 0 ? "–" : String(format: "%.0f", summary.latencyP50),
                "p95": summary.timed == 0 ? "–" : String(format: "%.0f", summary.latencyP95),
            ]
        }
        let calls = run.results.map { result -> [String: Any] in
            [
                "id": result.caseID, "column": result.column.name, "attempt": String(result.attempt),
                "state": result.passed ? "passed" : "failed",
                "latency": result.observation.batch == nil ? String(format: "%.0f", result.observation.latencyMs) : "–",
                "cost": result.observation.cost.map { String(format: "$%.6f", $0) } ?? "-",
            ]
        }
        let failing = run.results.filter { !$0.passed }.map { result -> [String: Any] in
            [
                "id": result.caseID, "column": result.column.name,
                "attempt": result.attempt > 1 ? " (repeat \(result.attempt))" : "",
                "failures": result.failures.map { ["assertion": $0.assertion, "seen": $0.seen] },
                "answer": result.observation.answer,
            ]
        }
        let judged = run.results.flatMap { result in
            result.judgements.map { judgement -> [String: Any] in
                [
                    "id": result.caseID, "column": result.column.name, "rubric": judgement.rubric,
                    "score": judgement.score.map { String(format: "%.2f", $0) } ?? "-",
                    "reason": judgement.error ?? judgement.reason,
                ]
            }
        }
        var values: [String: Any] = [
            "run": run.id, "suite": run.suite, "columns": columns, "calls": calls, "failing": failing, "judged": judged,
            "passed": "\(run.results.filter(\.passed).count) of \(run.results.count)",
            "hasFailing": !failing.isEmpty, "hasJudged": !judged.isEmpty,
        ]
        if let comparison {
            values["baseline"] = [
                "run": comparison.baseline,
                "verdict": comparison.exceeded ? "regressed beyond the limit" : "no column regressed beyond the limit",
                "regressions": comparison.regressions.map { ["id": $0.caseID, "column": $0.column] },
                "improvements": comparison.improvements.map { ["id": $0.caseID, "column": $0.column] },
            ]
        }
        return values
    }
}
