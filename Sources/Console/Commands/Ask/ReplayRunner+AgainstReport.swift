import Foundation
import Inspector
import ResponsesAPI
import Untrusted
import Workbench

/// The comparison of `inspect replay --against` as a table (each exchange before → after, the totals, the
/// answers that changed most), as JSON, or as an HTML page rendered from `inspector/replay.mustache`.
extension ReplayRunner {
    func write(_ comparison: ReplayComparison, request: ReplayAgainstRequest) -> ExitStatus {
        if let path = request.html {
            do {
                try ReplayPage.write(comparison, to: path)
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
            context.diagnostics.write("wrote \(path)\n")
        }
        context.output.write(request.json ? comparison.json.prettyPrinted() + "\n" : Self.text(comparison))
        return comparison.failed == comparison.rows.count ? .apiError : .success
    }

    static func text(_ comparison: ReplayComparison) -> String {
        let (pair, money, time) = (ReplayFigures.pair, ReplayFigures.money, ReplayFigures.time)
        var table = [["ID", "REPLAY", "SIMILAR", "IN", "OUT", "COST", "LATENCY"]]
        for row in comparison.rows {
            let replay = row.replay.exchangeID.map { "#\($0)" } ?? "-"
            table.append([
                "#\(row.original.id)", replay,
                row.replay.error == nil ? row.similarity.map { String(format: "%.2f", $0) } ?? "-" : "failed",
                pair(row.original.inputTokens.map(String.init), row.replay.inputTokens.map(String.init)),
                pair(row.original.outputTokens.map(String.init), row.replay.outputTokens.map(String.init)),
                pair(money(row.original.costUSD), money(row.replay.costUSD)),
                pair(time(row.original.durationMs), time(row.replay.durationMs)),
            ])
        }
        var out = "Replayed against \(comparison.target).\n" + InspectorPresenter.render(table)
        let cost = comparison.totals(\.costUSD, \.costUSD)
        let input = comparison.totals(\.inputTokens, \.inputTokens)
        let output = comparison.totals(\.outputTokens, \.outputTokens)
        out += "\n\(comparison.rows.count) replayed, \(comparison.failed) failed"
        if let mean = comparison.meanSimilarity {
            out += String(format: "; similarity %.2f on average (%@)", mean, comparison.measure)
        }
        out += ".\ntokens in \(input.0) → \(input.1), out \(output.0) → \(output.1); "
        if cost.2 == 0 {
            out += "cost unknown (prices.json has no price for these models)"
        } else {
            out += String(format: "cost $%.4f → $%.4f", cost.0, cost.1)
            if cost.2 < comparison.rows.count { out += " (the \(cost.2) priced on both sides)" }
            if cost.0 > 0 { out += String(format: " (×%.2f)", cost.1 / cost.0) }
        }
        let (before, after) = comparison.medianDurations
        out += "; median latency \(pair(time(before), time(after))).\n"
        let changed = comparison.changedMost(5).filter { ($0.similarity ?? 0) < 0.999 }
        if !changed.isEmpty {
            out += "\nChanged most:\n"
            for row in changed {
                let score = row.replay.error == nil ? String(format: "%.2f", row.similarity ?? 0) : "failed"
                out += "  #\(row.original.id) (\(score))\n    before: \(excerpt(row.original.answer))\n"
                out += "    after:  \(row.replay.error.map { "error: " + excerpt($0) } ?? excerpt(row.replay.answer))\n"
            }
        }
        return out
    }

    /// The start of an answer on one line, its control characters shown.
    static func excerpt(_ text: String, limit: Int = 100) -> String {
        let line = TerminalText.cleanSingleLine(text)
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}

/// The HTML page of a comparison: `inspector/replay.mustache`, values escaped by Unicode scalar, mode 0600
/// (it holds the answers).
enum ReplayPage {
    static func write(_ comparison: ReplayComparison, to path: String) throws(ConsoleError) {
        try TemplatePage.write(template: "inspector/replay.mustache", values: values(comparison), to: path)
    }

    static func values(_ comparison: ReplayComparison) -> [String: Any] {
        let (pair, money, time) = (ReplayFigures.pair, ReplayFigures.money, ReplayFigures.time)
        let rows = comparison.changedMost(comparison.rows.count).map { row -> [String: Any] in
            [
                "id": String(row.original.id), "replay": row.replay.exchangeID.map { String($0) } ?? "-",
                "similarity": row.replay.error == nil
                    ? row.similarity.map { String(format: "%.2f", $0) } ?? "-" : "failed",
                "width": String(format: "%.0f", (row.similarity ?? 0) * 100),
                "before": row.original.answer, "after": row.replay.error.map { "error: \($0)" } ?? row.replay.answer,
                "tokens":
                    "\(row.original.inputTokens.map(String.init) ?? "-")/\(row.original.outputTokens.map(String.init) ?? "-") → \(row.replay.inputTokens.map(String.init) ?? "-")/\(row.replay.outputTokens.map(String.init) ?? "-")",
                "cost": pair(money(row.original.costUSD), money(row.replay.costUSD)),
                "latency": pair(time(row.original.durationMs), time(row.replay.durationMs)),
            ]
        }
        let cost = comparison.totals(\.costUSD, \.costUSD)
        return [
            "target": comparison.target, "measure": comparison.measure, "rows": rows,
            "replayed": String(comparison.rows.count), "failed": String(comparison.failed),
            "mean": comparison.meanSimilarity.map { String(format: "%.2f", $0) } ?? "-",
            "cost": pair(money(cost.0), money(cost.1)),
        ]
    }
}

/// A figure before and after, as the table and the page show it: `$0.0001 → $0.0004`, `820ms → 1.20s`.
enum ReplayFigures {
    static func pair(_ a: String?, _ b: String?) -> String { "\(a ?? "-") → \(b ?? "-")" }
    static func money(_ value: Double?) -> String? { value.map { String(format: "$%.4f", $0) } }
    static func time(_ value: Double?) -> String? { value.map(InspectorPresenter.milliseconds) }
}
