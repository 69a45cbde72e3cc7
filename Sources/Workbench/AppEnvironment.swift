import Foundation

/// The process environment and the clock, passed in as a value so tests can set both.
public struct AppEnvironment: Sendable {
    public var variables: [String: String]
    public var now: @Sendable () -> Date

    public init(variables: [String: String], now: @escaping @Sendable () -> Date = Date.init) {
        self.variables = variables
        self.now = now
    }

    /// The real environment of this process.
    public static var process: AppEnvironment {
        AppEnvironment(variables: ProcessInfo.processInfo.environment)
    }

    public subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// `$OPENRESPONSES_HOME`, else `$XDG_DATA_HOME/openresponses`, else `~/.local/share/openresponses`.
    public var dataDirectory: URL {
        if let home = self["OPENRESPONSES_HOME"] { return URL(fileURLWithPath: home, isDirectory: true) }
        if let xdg = self["XDG_DATA_HOME"] {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("openresponses", isDirectory: true)
        }
        let home = self["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/openresponses", isDirectory: true)
    }

    /// Creates the data directory (mode 0700) if needed and returns it.
    public func ensureDataDirectory() throws -> URL {
        let url = dataDirectory
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    public var inspectorPath: String { dataDirectory.appendingPathComponent("inspector.sqlite").path }
    public var historyPath: String { dataDirectory.appendingPathComponent("history").path }
    public var libraryPath: String { dataDirectory.appendingPathComponent("library.sqlite").path }
}
