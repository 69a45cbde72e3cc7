import Foundation
import ResponsesAPI

/// A run compared with an earlier one (`eval --baseline RUN`): each call matched by its column's name, its
/// case and its repeat; one that passed then and fails now regressed, one that failed then and passes now
/// got better. A column is over the limit when the share of its calls that regressed is more than
/// `maxRegression` (0: any regression).
public struct EvalComparison: Sendable {
    /// A call whose outcome changed: its case, column, repeat, and (for a regression) what failed now.
    public struct Change: Sendable, Hashable {
        public var caseID: String
        public var column: String
        public var attempt: Int
        public var failures: [EvalFailure]
    }

    /// A column's pass rates then and now, and how many of its calls regressed.
    public struct ColumnChange: Sendable, Hashable {
        public var column: String
        /// Nil: the column is not in the baseline.
        public var baselinePassRate: Double?
        public var passRate: Double
        public var regressed: Int
        public var improved: Int
        public var compared: Int
        public var overLimit: Bool

        /// The share of the column's compared calls that regressed.
        public var fall: Double { compared == 0 ? 0 : Double(regressed) / Double(compared) }
    }

    public var baseline: String
    public var maxRegression: Double
    public var columns: [ColumnChange]
    public var regressions: [Change]
    public var improvements: [Change]
    /// Calls of this run the baseline has no match for (a new case, column or repeat).
    public var unmatched: Int

    /// Whether some column regressed by more than the limit (the run's exit status is then 1).
    public var exceeded: Bool { columns.contains(where: \.overLimit) }

    /// `run` against the stored run `baseline` (its JSON, as `EvalRun.json` wrote it).
    public init(_ run: EvalRun, against baseline: JSONValue, maxRegression: Double) throws(EvalBaselineError) {
        guard let id = baseline["run"]?.stringValue, let rows = baseline["cases"]?.arrayValue else {
            throw EvalBaselineError("the stored run is not an eval run's JSON (no run or cases)")
        }
        self.baseline = id
        self.maxRegression = maxRegression
        var before: [String: Bool] = [:]
        for row in rows {
            guard let caseID = row["id"]?.stringValue, let column = row["column"]?.stringValue,
                let passed = row["passed"]?.boolValue
            else { continue }
            before[Self.key(caseID, column, row["attempt"]?.intValue ?? 1)] = passed
        }
        var baselineRates: [String: Double] = [:]
        for column in baseline["columns"]?.arrayValue ?? [] {
            if let name = column["column"]?.stringValue, let rate = column["pass_rate"]?.doubleValue {
                baselineRates[name] = rate
            }
        }
        regressions = []
        improvements = []
        unmatched = 0
        columns = []
        for summary in run.columns {
            let name = summary.column.name
            var change = ColumnChange(
                column: name, baselinePassRate: baselineRates[name], passRate: summary.passRate, regressed: 0,
                improved: 0, compared: 0, overLimit: false)
            for result in run.results where result.column == summary.column {
                guard let passedBefore = before[Self.key(result.caseID, name, result.attempt)] else {
                    unmatched += 1
                    continue
                }
                change.compared += 1
                let item = Change(
                    caseID: result.caseID, column: name, attempt: result.attempt, failures: result.failures)
                if passedBefore, !result.passed {
                    change.regressed += 1
                    regressions.append(item)
                } else if !passedBefore, result.passed {
                    change.improved += 1
                    improvements.append(item)
                }
            }
            change.overLimit = change.regressed > 0 && change.fall > maxRegression
            columns.append(change)
        }
    }

    static func key(_ caseID: String, _ column: String, _ attempt: Int) -> String {
        "\(column)\u{0}\(caseID)\u{0}\(attempt)"
    }

    /// Whether `text` has the shape of a run's id (`20261129T074501Z-3f9a1c`): the only baseline name read
    /// as a file's.
    public static func isRunID(_ text: String) -> Bool {
        text.wholeMatch(of: /[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}/) != nil
    }

    /// The `baseline` object of `--json`.
    public var json: JSONValue {
        func changes(_ list: [Change]) -> JSONValue {
            .array(
                list.map {
                    [
                        "id": .string($0.caseID), "column": .string($0.column), "attempt": .integer($0.attempt),
                        "failures": .array(
                            $0.failures.map { ["assertion": .string($0.assertion), "seen": .string($0.seen)] }),
                    ]
                })
        }
        return [
            "run": .string(baseline), "max_regression": .number(maxRegression), "passed": .bool(!exceeded),
            "columns": .array(
                columns.map { column -> JSONValue in
                    [
                        "column": .string(column.column),
                        "baseline_pass_rate": column.baselinePassRate.map(JSONValue.number) ?? .null,
                        "pass_rate": .number(column.passRate), "regressed": .integer(column.regressed),
                        "improved": .integer(column.improved), "compared": .integer(column.compared),
                        "over_limit": .bool(column.overLimit),
                    ]
                }),
            "regressions": changes(regressions), "improvements": changes(improvements),
            "unmatched": .integer(unmatched),
        ]
    }
}

/// A baseline that cannot be compared with: not a run's id, no such run, or not a run's JSON.
public struct EvalBaselineError: Error, Sendable, CustomStringConvertible, UserFacingError {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    public var userMessage: String { "--baseline: \(description)" }
    public var exitStatus: ExitStatus { .usage }
}
