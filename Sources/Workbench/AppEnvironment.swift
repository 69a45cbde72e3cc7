import Foundation

/// The process environment and the clock, passed in as a value so tests can set both.
public struct AppEnvironment: Sendable {
    public var variables: [String: String]
    public var now: @Sendable () -> Date

    public init(variables: [String: String], now: @escaping @Sendable () -> Date = Date.init) {
        self.variables = variables
        self.now = now
    }

    /// The real environment of this process, read from `environ` as it is now (a command may `setenv` before
    /// it makes a context). On Linux the variables are read directly: `ProcessInfo` sets itself up first, about
    /// a tenth of a millisecond of every start (Docs/performance.md). A name set twice keeps its first value,
    /// as `getenv` reads it.
    public static var process: AppEnvironment {
        #if canImport(Glibc)
        return AppEnvironment(variables: parse(environ))  // the program never calls clearenv(), which leaves it NULL
        #else
        return AppEnvironment(variables: ProcessInfo.processInfo.environment)
        #endif
    }

    /// The variables of a `NAME=value` list ended by a null entry, as `environ` is: split at the first `=` as
    /// bytes (Characters would cost the Unicode tables a start); an entry without `=` is skipped; a name set
    /// twice keeps its first value, the one `getenv` finds.
    static func parse(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var variables: [String: String] = [:]
        var entry = entries
        while let pointer = entry.pointee {
            entry += 1
            guard let equals = strchr(pointer, 0x3D) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
            if variables[name] == nil {
                let value = equals + 1
                variables[name] = String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
            }
        }
        return variables
    }

    public subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// `$OPENRESPONSES_HOME`, else `$XDG_DATA_HOME/openresponses`, else `~/.local/share/openresponses`.
    public var dataDirectory: URL { URL(fileURLWithPath: dataDirectoryPath, isDirectory: true) }

    /// `dataDirectory` as a path. An absolute directory is used as written, its trailing slashes dropped, without
    /// `URL` (the stores' paths are needed at every start, and `URL` costs a start about 0.1 ms); any other (a
    /// relative one, or one that starts with `~`) goes through `URL(fileURLWithPath:)` as before, which expands
    /// the `~` and resolves the rest against the current directory.
    public var dataDirectoryPath: String {
        let directory: String
        if let home = self["OPENRESPONSES_HOME"] {
            directory = home
        } else if let xdg = self["XDG_DATA_HOME"] {
            directory = Self.joined(xdg, "openresponses")
        } else {
            directory = Self.joined(self["HOME"] ?? NSHomeDirectory(), ".local/share/openresponses")
        }
        if directory.hasPrefix("/") { return Self.joined(directory, "") }
        return URL(fileURLWithPath: directory, isDirectory: true).path
    }

    /// Creates the data directory (mode 0700) if needed and returns it.
    public func ensureDataDirectory() throws -> URL {
        let url = dataDirectory
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    public var inspectorPath: String { Self.joined(dataDirectoryPath, "inspector.sqlite") }
    public var historyPath: String { Self.joined(dataDirectoryPath, "history") }
    public var libraryPath: String { Self.joined(dataDirectoryPath, "library.sqlite") }

    /// `directory` and `name` joined by one slash, without the directory's trailing slashes ("/" stays);
    /// with an empty name, the directory alone.
    static func joined(_ directory: String, _ name: String) -> String {
        var bytes = Array(directory.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        let trimmed = String(decoding: bytes, as: UTF8.self)
        if name.isEmpty { return trimmed }
        return trimmed == "/" ? "/" + name : trimmed + "/" + name
    }
}
