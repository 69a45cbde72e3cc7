import Foundation

/// The inspector's two engines, for suites that run once against each (one suite, parameterised by engine):
/// the local SQLite store, and a team's PostgreSQL (the cluster scripts/test.sh starts, a fresh database per
/// test, reached through OPENRESPONSES_INSPECTOR_URL as a user sets it). PostgreSQL is among the engines when
/// the cluster is there or required (OPENRESPONSES_REQUIRE_POSTGRES=1, where its absence fails the tests).
public enum InspectorEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres

    public static var all: [InspectorEngine] {
        let environment = ProcessInfo.processInfo.environment
        let postgres =
            environment["OPENRESPONSES_TEST_POSTGRES_URL"] != nil
            || environment["OPENRESPONSES_REQUIRE_POSTGRES"] == "1"
        return postgres ? [.sqlite, .postgres] : [.sqlite]
    }

    public var description: String { rawValue }

    /// The environment a console needs to use this engine: none for SQLite; for PostgreSQL, the URL of a new
    /// database of its own.
    public func variables() throws -> [String: String] {
        guard self == .postgres else { return [:] }
        return ["OPENRESPONSES_INSPECTOR_URL": try Self.freshDatabase()]
    }

    /// A new, empty database on the test cluster; its URL.
    public static func freshDatabase() throws -> String {
        guard let cluster = ProcessInfo.processInfo.environment["OPENRESPONSES_TEST_POSTGRES_URL"] else {
            throw SubprocessError("OPENRESPONSES_TEST_POSTGRES_URL is not set: run scripts/test.sh")
        }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql(cluster, "CREATE DATABASE \(name)")
        guard let slash = cluster.lastIndex(of: "/") else { throw SubprocessError("not a database URL: \(cluster)") }
        return cluster[..<slash] + "/" + name
    }

    /// Whether the team store at `url` holds `secret` anywhere in its exchanges and events, as text or as the
    /// bytes of a body (hex).
    public static func teamStore(_ url: String, contains secret: String) throws -> Bool {
        let hex = Array(secret.utf8).map { String(format: "%02x", $0) }.joined()
        let found = try psql(
            url,
            """
            SELECT count(*) FROM (SELECT e::text AS t FROM exchange e UNION ALL SELECT v::text FROM event v) rows
            WHERE strpos(t, '\(secret.replacingOccurrences(of: "'", with: "''"))') > 0 OR strpos(t, '\(hex)') > 0
            """)
        return found.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
    }

    /// Runs `sql` with psql against `url`; its output.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        // The password through PGPASSWORD, not on psql's command line (every user's process list shows that).
        var components = URLComponents(string: url)
        let password = components?.password ?? ""
        components?.password = nil
        let result = try Subprocess.runBlocking(
            "/usr/bin/psql", [components?.string ?? url, "-v", "ON_ERROR_STOP=1", "-qAtc", sql],
            environment: ["PATH": "/usr/bin:/bin", "PGPASSWORD": password])
        guard result.status == 0 else { throw SubprocessError("psql \(sql): \(result.stderr)") }
        return result.stdout
    }
}
