import Foundation
import ResponsesAPI

/// `providers check` as a table or JSON.
extension ProvidersRunner {
    static func table(_ reports: [Report]) -> String {
        func timed(_ result: Result<Double, ConsoleError>?) -> String {
            switch result {
            case .success(let ms)?: String(format: "ok %.0f ms", ms)
            case .failure(let error)?: "failed: " + String(error.message.prefix(40))
            case nil: "–"
            }
        }
        var lines = [["provider", "GET /models", "response", "stream", "chained turn", "embeddings", "models"]]
        for report in reports {
            let models = report.modelsError.map { "failed: " + String($0.prefix(40)) } ?? "ok (\(report.models.count))"
            let chain =
                report.chainKept.map { ($0 ? "kept" : "not kept") + (report.chainEvidence.map { " (\($0))" } ?? "") }
                ?? (report.chainError.map { "failed: " + String($0.prefix(30)) } ?? "–")
            let embeddings: String =
                switch report.embeddings {
                case .success(let dimensions)?: "ok (\(dimensions) dims)"
                case .failure(let error)?: "failed: " + String(error.message.prefix(30))
                case nil: report.modelsError == nil ? "no embedding model listed" : "–"
                }
            lines.append([
                report.name, models, timed(report.create), timed(report.stream), chain, embeddings,
                report.models.prefix(4).joined(separator: ", ") + (report.models.count > 4 ? ", …" : ""),
            ])
        }
        let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    static func json(_ reports: [Report]) -> String {
        func timed(_ result: Result<Double, ConsoleError>?) -> JSONValue {
            switch result {
            case .success(let ms)?: ["ok": true, "ms": .number(ms)]
            case .failure(let error)?: ["ok": false, "error": .string(error.message)]
            case nil: .null
            }
        }
        return JSONValue.array(
            reports.map { report in
                let embeddings: JSONValue =
                    switch report.embeddings {
                    case .success(let dimensions)?: ["ok": true, "dimensions": .integer(dimensions)]
                    case .failure(let error)?: ["ok": false, "error": .string(error.message)]
                    case nil: .null
                    }
                return [
                    "name": .string(report.name), "base_url": .string(report.baseURL),
                    "models": report.modelsError == nil ? .array(report.models.map(JSONValue.string)) : .null,
                    "models_error": report.modelsError.map(JSONValue.string) ?? .null,
                    "model": report.model.map(JSONValue.string) ?? .null,
                    "response": timed(report.create), "stream": timed(report.stream),
                    "chained_turn_kept": report.chainKept.map(JSONValue.bool) ?? .null,
                    "chained_turn_evidence": report.chainEvidence.map(JSONValue.string) ?? .null,
                    "previous_response_id_echoed": report.echoesPrevious.map(JSONValue.bool) ?? .null,
                    "embeddings": embeddings,
                ]
            }
        ).prettyPrinted()
    }
}
