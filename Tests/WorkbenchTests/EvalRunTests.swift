import Foundation
import ResponsesAPI
import Testing

@testable import Workbench

/// A run's columns and figures: the matrix's order, pass rates, cost, latency percentiles, the id.
@Suite("eval runs")
struct EvalRunTests {
    @Test func theMatrixIsPresetsTimesModelsTimesProviders() {
        let columns = EvalColumn.matrix(presets: ["a", "b"], models: ["m1", "m2"], providers: [])
        #expect(
            columns.map(\.name) == ["preset=a model=m1", "preset=a model=m2", "preset=b model=m1", "preset=b model=m2"])
        #expect(EvalColumn.matrix(presets: [], models: [], providers: []).map(\.name) == ["default"])
        #expect(EvalColumn.matrix(presets: [], models: ["m"], providers: ["p", "q"]).count == 2)
    }

    @Test func aColumnsFiguresComeFromItsCallsAlone() {
        let a = EvalColumn(preset: nil, model: "a", provider: nil)
        let b = EvalColumn(preset: nil, model: "b", provider: nil)
        var results: [EvalResult] = []
        for latency in 1...20 {
            results.append(
                EvalResult(
                    caseID: "c\(latency)", column: a, attempt: 1,
                    observation: EvalObservation(answer: "", latencyMs: Double(latency), cost: 0.5),
                    failures: latency <= 5 ? [EvalFailure(assertion: "x", seen: "y")] : []))
        }
        results.append(
            EvalResult(
                caseID: "c1", column: b, attempt: 1, observation: EvalObservation(answer: "", latencyMs: 999),
                failures: []))
        let run = EvalRun(id: "r", suite: "s", columns: [a, b], results: results)
        let first = run.columns[0]
        #expect(first.passed == 15 && first.total == 20 && first.passRate == 0.75)
        #expect(first.cost == 10 && first.unpriced == 0)
        #expect(first.latencyP50 == 10 && first.latencyP95 == 19)
        // Nearest rank: the smallest value with at least that fraction of the calls at or under it.
        #expect(EvalColumnSummary.percentile([1, 2, 3], 0.5) == 2)
        #expect(EvalColumnSummary.percentile([10, 20, 30, 40], 0.95) == 40)
        #expect(EvalColumnSummary.percentile([], 0.5) == 0)
        #expect(run.columns[1].latencyP50 == 999 && run.columns[1].unpriced == 1)
        #expect(!run.passed)
        let json = run.json
        #expect(json["cases"]?.arrayValue?.count == 21)
        #expect(json["columns"]?[0]?["pass_rate"]?.doubleValue == 0.75)
        #expect(json["cases"]?[0]?["failures"]?[0]?["assertion"] == "x")
    }

    @Test func aRunsIdIsATimeAndRandomDigits() {
        let id = EvalRun.newID(now: Date(timeIntervalSince1970: 0))
        #expect(id.hasPrefix("19700101T000000Z-"))
        #expect(id.count == "19700101T000000Z-".count + 6)
        #expect(id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" })
        #expect(EvalRun.newID() != EvalRun.newID() || EvalRun.newID() != EvalRun.newID())
    }
}

/// A run against a stored one: what regressed, what got better, and whether a column is over the limit.
@Suite("eval baselines")
struct EvalBaselineTests {
    let column = EvalColumn(preset: nil, model: "m", provider: nil)

    func run(_ passed: [String: Bool]) -> EvalRun {
        let results = passed.sorted { $0.key < $1.key }.map { id, ok in
            EvalResult(
                caseID: id, column: column, attempt: 1, observation: EvalObservation(answer: "", latencyMs: 1),
                failures: ok ? [] : [EvalFailure(assertion: "contains: \"x\"", seen: "not in the answer")])
        }
        return EvalRun(id: "20261129T074501Z-3f9a1c", suite: "s", columns: [column], results: results)
    }

    @Test func passToFailRegressesAndFailToPassGetsBetter() throws {
        let before = run(["a": true, "b": false, "c": true, "d": true]).json
        let comparison = try EvalComparison(
            run(["a": false, "b": true, "c": true, "e": false]), against: before, maxRegression: 0)
        #expect(comparison.regressions.map(\.caseID) == ["a"])
        #expect(comparison.improvements.map(\.caseID) == ["b"])
        #expect(comparison.unmatched == 1)
        #expect(comparison.columns.first?.regressed == 1 && comparison.columns.first?.compared == 3)
        #expect(comparison.exceeded)
        // One of three regressed: a third is over a quarter, not over a half.
        #expect(
            try EvalComparison(run(["a": false, "b": true, "c": true]), against: before, maxRegression: 0.25).exceeded)
        #expect(
            !(try EvalComparison(run(["a": false, "b": true, "c": true]), against: before, maxRegression: 0.5).exceeded)
        )
        #expect(
            !(try EvalComparison(run(["a": true, "b": false, "c": true]), against: before, maxRegression: 0).exceeded))
        #expect(comparison.json["regressions"]?[0]?["id"] == "a")
    }

    @Test func onlyARunsIdIsABaselinesName() {
        #expect(EvalComparison.isRunID("20261129T074501Z-3f9a1c"))
        #expect(EvalComparison.isRunID(EvalRun.newID()))
        for bad in ["../20261129T074501Z-3f9a1c", "20261129T074501Z-3f9a1c.json", "x", "", "20261129T074501Z-3F9A1C"] {
            #expect(!EvalComparison.isRunID(bad), "\(bad)")
        }
        #expect(throws: EvalBaselineError.self) { try EvalComparison(run([:]), against: .null, maxRegression: 0) }
    }
}
