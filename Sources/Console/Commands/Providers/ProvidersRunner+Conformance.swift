import Foundation
import ResponsesAPI
import Untrusted
import Workbench

/// `providers check --conformance [NAME]`: Workbench's `ConformanceSuite` run against each provider (or
/// the one named), shown as a matrix (or `--json`), and kept in the data directory's `conformance.json`,
/// where a console session on a provider that does not keep chained turns learns to start stateless.
extension ProvidersRunner {
    public func conformance(_ name: String?, json: Bool) async -> ExitStatus {
        let chosen: [ProviderCatalog.Provider]
        do { chosen = try providers(named: name) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        var reports: [ConformanceReport] = []
        for provider in chosen {
            if Task.isCancelled { return .interrupted }
            reports.append(await conformance(of: provider))
        }
        output.write(json ? JSONValue.array(reports.map(\.json)).prettyPrinted() + "\n" : Self.matrix(reports))
        do {
            try ConformanceRecord.keep(reports, environment: environment)
        } catch {
            ErrorReport.write(error, to: diagnostics)
        }
        if Task.isCancelled { return .interrupted }
        return reports.allSatisfy(\.passed) ? .success : .apiError
    }

    /// One provider's report: its client made as any command's (its key, headers and timeouts; every
    /// request recorded by the inspector), its model the one it names or the first chat model it lists.
    func conformance(of provider: ProviderCatalog.Provider) async -> ConformanceReport {
        var checked = environment.choosing(provider: provider.name)
        // Each request waits at most 30 s (unless the provider or the environment sets its own timeout) and
        // is not retried: a server that accepts and never answers is reported, not waited on.
        checked.variables["OPENRESPONSES_TIMEOUT"] = checked.variables["OPENRESPONSES_TIMEOUT"] ?? "30"
        checked.variables["OPENRESPONSES_MAX_RETRIES"] = checked.variables["OPENRESPONSES_MAX_RETRIES"] ?? "0"
        func unusable(_ reason: String) -> ConformanceReport {
            ConformanceReport(
                provider: provider.name, baseURL: provider.baseURL, model: provider.model, checkedAt: Date(),
                results: [ConformanceResult(check: .create, verdict: .failed(reason))], keepsChains: nil)
        }
        let context: ConsoleContext
        do {
            context = try ConsoleContext(environment: checked, output: output, diagnostics: diagnostics)
        } catch {
            return unusable(error.message)
        }
        var model = provider.model
        if model == nil {
            let listed = try? await context.client.listModels(
                context: ExchangeContext(labels: ["source": "providers check"]))
            model = listed?.map(\.id).first { !Self.isEmbeddingModel($0) }
        }
        guard let model else {
            await context.shutdown()
            return unusable("no model: the provider names none and GET /models lists none")
        }
        let timeout = Double(checked["OPENRESPONSES_CONFORMANCE_TIMEOUT"] ?? "") ?? 60
        let suite = ConformanceSuite(
            client: context.client, provider: provider.name, model: model, checkTimeout: .seconds(timeout))
        let report = await suite.run()
        await context.shutdown()
        return report
    }

    /// The matrix: a row per provider, a column per check (✓, ✗, – skipped), then each ✗ and – in words.
    static func matrix(_ reports: [ConformanceReport]) -> String {
        let checks = ConformanceCheck.allCases
        var rows = [["provider"] + checks.map(\.heading)]
        var notes: [String] = []
        for report in reports {
            let provider = TerminalText.cleanSingleLine(report.provider)
            rows.append(
                [provider]
                    + checks.map { check in
                        switch report.verdict(check) {
                        case .passed?: "✓"
                        case .failed?: "✗"
                        case .skipped?: "–"
                        case nil: ""
                        }
                    })
            for result in report.results {
                switch result.verdict {
                case .passed: continue
                case .failed(let difference):
                    notes.append("\(provider) \(result.check.rawValue) ✗ \(TerminalText.cleanSingleLine(difference))")
                case .skipped(let reason):
                    notes.append(
                        "\(provider) \(result.check.rawValue) – skipped: \(TerminalText.cleanSingleLine(reason))")
                }
            }
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        let kept = reports.compactMap { report in
            report.keepsChains.map {
                "\(TerminalText.cleanSingleLine(report.provider)) \($0 ? "keeps" : "does not keep") chained turns"
            }
        }
        return (table + (notes.isEmpty ? [] : [""] + notes) + (kept.isEmpty ? [] : [""] + kept))
            .joined(separator: "\n") + "\n"
    }
}
