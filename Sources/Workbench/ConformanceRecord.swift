import Foundation
import ResponsesAPI

/// The last `providers check --conformance` of each provider, kept in the data directory as one file,
/// `conformance.json` (`{"version": 1, "providers": {NAME: report}}`): a provider's name is a key in it,
/// never part of a path. Written whole and atomically, readable by its owner alone.
public struct ConformanceRecord: Sendable {
    public var reports: [String: ConformanceReport]

    public init(reports: [String: ConformanceReport] = [:]) {
        self.reports = reports
    }

    public static func path(_ environment: AppEnvironment) -> URL {
        environment.dataDirectory.appendingPathComponent("conformance.json")
    }

    /// The record, or an empty one when there is none or it cannot be read (a damaged record is only a
    /// lost cache of checks: the next check writes it again).
    public static func load(_ environment: AppEnvironment) -> ConformanceRecord {
        guard let data = FileManager.default.contents(atPath: path(environment).path),
            data.count <= 4 << 20,
            let json = try? JSONValue.parse(Array(data)),
            let providers = json["providers"]?.objectValue
        else { return ConformanceRecord() }
        var reports: [String: ConformanceReport] = [:]
        for (name, value) in providers {
            if let report = ConformanceReport(json: value), report.provider == name { reports[name] = report }
        }
        return ConformanceRecord(reports: reports)
    }

    /// Adds `reports` (replacing those of the same providers) and writes the file.
    public static func keep(_ reports: [ConformanceReport], environment: AppEnvironment) throws(ConformanceRecordError)
    {
        var record = load(environment)
        for report in reports { record.reports[report.provider] = report }
        let json = JSONValue.object([
            "version": 1,
            "providers": .object(JSONObject(record.reports.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })),
        ])
        let url = path(environment)
        do {
            _ = try environment.ensureDataDirectory()
            try Data((json.prettyPrinted() + "\n").utf8).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw ConformanceRecordError(path: url.path, reason: "\(error.localizedDescription)")
        }
    }
}

/// The record could not be written.
public struct ConformanceRecordError: Error, UserFacingError {
    public var path: String
    public var reason: String
    public var userMessage: String { "cannot keep the conformance results in \(path): \(reason)" }
    public var exitStatus: ExitStatus { .apiError }
    public var hint: String? { "the matrix above is complete; only the record of it is missing" }
}

/// Whether a console session starts stateless: when the provider's last conformance check found that it
/// does not keep chained turns (`previous_response_id`), a console on it sends the whole conversation each
/// turn instead, and says so once. Decided from the record alone; a record made for another base URL (the
/// provider was pointed elsewhere since) decides nothing.
public enum ChainKeeping {
    public struct Decision: Sendable, Hashable {
        public var mode: Conversation.Mode
        /// What the console says once at the start; nil when nothing was decided.
        public var notice: String?
    }

    /// The mode a session on `provider` (at `baseURL`) starts in; `explicit`, the mode the user chose, wins.
    public static func startingMode(
        provider: String, baseURL: String, explicit: Conversation.Mode? = nil, environment: AppEnvironment
    ) -> Decision {
        if let explicit { return Decision(mode: explicit) }
        guard let report = ConformanceRecord.load(environment).reports[provider], report.baseURL == baseURL,
            report.keepsChains == false
        else { return Decision(mode: .stored) }
        return Decision(
            mode: .stateless,
            notice:
                "provider \(provider) does not keep chained turns (providers check --conformance, \(report.day)): stateless mode"
        )
    }
}
