import Foundation

/// What a process runs with, resolved once where it starts and handed down as a value (tests make their
/// own): the environment variables, the provider chosen for it, which of its standard streams are
/// terminals, and the clock. The data directory and whether the inspector records are read from the
/// variables. Nothing below the executable reads the process environment or writes it to pass a choice on.
public struct AppEnvironment: Sendable {
    public var variables: [String: String]
    /// The provider chosen for this process: `--provider`, else a preset's or the config file's `provider:`
    /// (chosen by the executable), else `OPENRESPONSES_PROVIDER` as the user's shell set it. nil: `default`.
    public var provider: String?
    public var terminal: TerminalFacts
    public var now: @Sendable () -> Date

    public init(
        variables: [String: String], provider: String? = nil, terminal: TerminalFacts = .none,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.variables = variables
        self.provider = provider
        self.terminal = terminal
        self.now = now
    }

    /// The real environment of this process, read from `environ` as it is now, with its terminals and the
    /// provider `OPENRESPONSES_PROVIDER` names. On Linux the variables are read directly: `ProcessInfo` sets
    /// itself up first, about a tenth of a millisecond of every start (Docs/performance.md). A name set
    /// twice keeps its first value, as `getenv` reads it.
    public static var process: AppEnvironment {
        #if canImport(Glibc)
            let variables = parse(environ)  // the program never calls clearenv(), which leaves it NULL
        #else
            let variables = ProcessInfo.processInfo.environment
        #endif
        return resolved(variables: variables, terminal: .process)
    }

    /// The value for a process started with `variables`: the provider is `OPENRESPONSES_PROVIDER`'s, read
    /// here as an input of the user's and never written.
    public static func resolved(variables: [String: String], terminal: TerminalFacts = .none) -> AppEnvironment {
        var environment = AppEnvironment(variables: variables, terminal: terminal)
        environment.provider = environment["OPENRESPONSES_PROVIDER"]
        return environment
    }

    /// This value with `name` as its provider (a flag's, a preset's, a provider of the ledger's); itself
    /// when `name` is nil. An empty name is `default`, as an empty variable was.
    public func choosing(provider name: String?) -> AppEnvironment {
        guard let name else { return self }
        var chosen = self
        chosen.provider = name.isEmpty ? nil : name
        return chosen
    }

    /// The provider this process talks to: the chosen one, else `default`.
    public var providerName: String { provider ?? ProviderCatalog.defaultName }

    /// Whether exchanges are recorded: the inspector is on unless `OPENRESPONSES_INSPECTOR=off`.
    public var recordsExchanges: Bool { self["OPENRESPONSES_INSPECTOR"]?.lowercased() != "off" }

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
                variables[name] = String(
                    decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
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
    /// Where fragments are kept by hash (`FragmentStore`).
    public var fragmentsPath: String { Self.joined(dataDirectoryPath, "fragments") }

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
