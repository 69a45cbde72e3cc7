import Foundation
import ResponsesAPI

/// A column of an eval's matrix: the preset, model and provider each call of it is made with (nil: the
/// config file's or the environment's own).
public struct EvalColumn: Sendable, Hashable {
    public var preset: String?
    public var model: String?
    public var provider: String?

    public init(preset: String?, model: String?, provider: String?) {
        self.preset = preset
        self.model = model
        self.provider = provider
    }

    /// `preset=terse model=gpt-4.1-mini provider=local`, only what is set; `default` when nothing is.
    public var name: String {
        let parts = [("preset", preset), ("model", model), ("provider", provider)].compactMap { key, value in
            value.map { "\(key)=\($0)" }
        }
        return parts.isEmpty ? "default" : parts.joined(separator: " ")
    }

    /// Presets × models × providers; a dimension with nothing given is one column of its default.
    public static func matrix(presets: [String], models: [String], providers: [String]) -> [EvalColumn] {
        let presetAxis: [String?] = presets.isEmpty ? [nil] : presets
        let modelAxis: [String?] = models.isEmpty ? [nil] : models
        let providerAxis: [String?] = providers.isEmpty ? [nil] : providers
        var columns: [EvalColumn] = []
        for preset in presetAxis {
            for model in modelAxis {
                for provider in providerAxis
                where !columns.contains(EvalColumn(preset: preset, model: model, provider: provider)) {
                    columns.append(EvalColumn(preset: preset, model: model, provider: provider))
                }
            }
        }
        return columns
    }
}

/// One call's result: the case, the column, which repeat, and what failed.
public struct EvalResult: Sendable, Hashable {
    public var caseID: String
    public var column: EvalColumn
    public var attempt: Int
    public var observation: EvalObservation
    public var failures: [EvalFailure]
    /// Each `judge:`'s grade, in the suite's order.
    public var judgements: [EvalJudgement]

    public init(
        caseID: String, column: EvalColumn, attempt: Int, observation: EvalObservation, failures: [EvalFailure],
        judgements: [EvalJudgement] = []
    ) {
        self.caseID = caseID
        self.column = column
        self.attempt = attempt
        self.observation = observation
        self.failures = failures
        self.judgements = judgements
    }

    public var passed: Bool { failures.isEmpty }
}

/// A column's figures: how many passed, what it cost, how long its calls took.
public struct EvalColumnSummary: Sendable, Hashable {
    public var column: EvalColumn
    public var passed: Int
    public var total: Int
    /// The sum of the priced calls' costs; `unpriced` calls had none.
    public var cost: Double
    public var unpriced: Int
    /// Over the calls whose latency was measured (not those through the Batch API); both 0 when none was.
    public var latencyP50: Double
    public var latencyP95: Double
    /// How many calls' latency was measured.
    public var timed: Int

    public init(column: EvalColumn, results: [EvalResult]) {
        self.column = column
        let mine = results.filter { $0.column == column }
        passed = mine.filter(\.passed).count
        total = mine.count
        cost = mine.compactMap(\.observation.cost).reduce(0, +)
        unpriced = mine.filter { $0.observation.cost == nil }.count
        let latencies = mine.filter { $0.observation.batch == nil }.map(\.observation.latencyMs).sorted()
        timed = latencies.count
        latencyP50 = Self.percentile(latencies, 0.5)
        latencyP95 = Self.percentile(latencies, 0.95)
    }

    public var passRate: Double { total == 0 ? 0 : Double(passed) / Double(total) }

    /// The nearest-rank percentile of sorted values (0 for none).
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// A finished run: its id, the suite, the columns' figures and each call's result, kept as JSON in the data
/// directory's `evals/` and printed by `--json`.
public struct EvalRun: Sendable {
    public var id: String
    public var suite: String
    public var columns: [EvalColumnSummary]
    public var results: [EvalResult]

    public init(id: String, suite: String, columns: [EvalColumn], results: [EvalResult]) {
        self.id = id
        self.suite = suite
        self.columns = columns.map { EvalColumnSummary(column: $0, results: results) }
        self.results = results
    }

    public var passed: Bool { results.allSatisfy(\.passed) }

    /// `20261129T074501Z-3f9a1c`: when it began, and six random hex digits; never a name from the suite.
    public static func newID(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: now) + "-" + String(format: "%06x", UInt32.random(in: 0...0xFF_FFFF))
    }

    /// `{"run", "suite", "columns": [...], "cases": [{"id", "column", "passed", "failures", "latency_ms", "cost"}]}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["run"] = .string(id)
        object["suite"] = .string(suite)
        object["passed"] = .bool(passed)
        object["columns"] = .array(
            columns.map { summary -> JSONValue in
                [
                    "column": .string(summary.column.name), "preset": Self.optional(summary.column.preset),
                    "model": Self.optional(summary.column.model), "provider": Self.optional(summary.column.provider),
                    "passed": .integer(summary.passed), "total": .integer(summary.total),
                    "pass_rate": .number(summary.passRate), "cost": .number(summary.cost),
                    "unpriced": .integer(summary.unpriced),
                    "latency_p50_ms": summary.timed == 0 ? .null : .number(summary.latencyP50),
                    "latency_p95_ms": summary.timed == 0 ? .null : .number(summary.latencyP95),
                ]
            })
        object["cases"] = .array(results.map(Self.json))
        return .object(object)
    }

    /// One call's row of `cases`; `citations` for a library answer, `judgements` for a case with `judge:`.
    static func json(_ result: EvalResult) -> JSONValue {
        var row: JSONObject = [
            "id": .string(result.caseID), "column": .string(result.column.name),
            "attempt": .integer(result.attempt),
            "passed": .bool(result.passed),
            "failures": .array(
                result.failures.map { ["assertion": .string($0.assertion), "seen": .string($0.seen)] }),
            "latency_ms": result.observation.batch == nil ? .number(result.observation.latencyMs) : .null,
            "cost": result.observation.cost.map(JSONValue.number) ?? .null,
            "output_tokens": result.observation.outputTokens.map(JSONValue.integer) ?? .null,
            "answer": .string(result.observation.answer),
        ]
        if let batch = result.observation.batch { row["batch"] = .string(batch) }
        if let citations = result.observation.citations {
            row["citations"] = .array(
                citations.map { ["path": .string($0.path), "page": $0.page.map(JSONValue.integer) ?? .null] })
        }
        if !result.judgements.isEmpty {
            row["judgements"] = .array(
                result.judgements.map { judgement -> JSONValue in
                    [
                        "rubric": .string(judgement.rubric), "score": judgement.score.map(JSONValue.number) ?? .null,
                        "reason": .string(judgement.reason), "error": optional(judgement.error),
                    ]
                })
        }
        return .object(row)
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
