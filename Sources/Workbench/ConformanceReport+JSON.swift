import Foundation
import ResponsesAPI

/// A report as JSON: what `providers check --conformance --json` prints and what `conformance.json` keeps.
extension ConformanceReport {
    public var json: JSONValue {
        var checks = JSONObject()
        for result in results {
            var entry = JSONObject()
            switch result.verdict {
            case .passed: entry["verdict"] = "passed"
            case .failed(let difference):
                entry["verdict"] = "failed"
                entry["difference"] = .string(difference)
            case .skipped(let reason):
                entry["verdict"] = "skipped"
                entry["reason"] = .string(reason)
            }
            if let milliseconds = result.milliseconds { entry["ms"] = .integer(Int(milliseconds.rounded())) }
            checks[result.check.rawValue] = .object(entry)
        }
        let formatter = ISO8601DateFormatter()
        return [
            "provider": .string(provider), "base_url": .string(baseURL),
            "model": model.map(JSONValue.string) ?? .null,
            "checked_at": .string(formatter.string(from: checkedAt)),
            "keeps_chains": keepsChains.map(JSONValue.bool) ?? .null,
            "passed": .bool(passed),
            "checks": .object(checks),
        ]
    }

    /// A report read back; nil when `json` is not one (a record written by hand, or damaged).
    public init?(json: JSONValue) {
        guard let provider = json["provider"]?.stringValue, let baseURL = json["base_url"]?.stringValue,
            let date = json["checked_at"]?.stringValue.flatMap({ ISO8601DateFormatter().date(from: $0) }),
            let checks = json["checks"]?.objectValue
        else { return nil }
        var results: [ConformanceResult] = []
        for check in ConformanceCheck.allCases {
            guard let entry = checks[check.rawValue] else { continue }
            let verdict: ConformanceVerdict
            switch entry["verdict"]?.stringValue {
            case "passed": verdict = .passed
            case "failed": verdict = .failed(entry["difference"]?.stringValue ?? "")
            case "skipped": verdict = .skipped(entry["reason"]?.stringValue ?? "")
            default: continue
            }
            results.append(
                ConformanceResult(check: check, verdict: verdict, milliseconds: entry["ms"]?.doubleValue))
        }
        self.init(
            provider: provider, baseURL: baseURL, model: json["model"]?.stringValue, checkedAt: date,
            results: results, keepsChains: json["keeps_chains"]?.boolValue)
    }
}
