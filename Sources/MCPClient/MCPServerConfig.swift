import ResponsesAPI

/// One MCP server on the user's machine (or reached over HTTP), as `mcp_servers:` declares it in config.yaml or a
/// preset (Docs/mcp.md). The file's shape is checked where files are read (`PresetSchema` in Workbench); this is
/// the typed value built from a checked entry.
public struct MCPServerConfig: Sendable, Hashable {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        /// A program started here, spoken to over its stdin and stdout. `command` is the program and its first
        /// arguments (`args` come after them); `environment` is added to a minimal one (PATH, HOME, LANG).
        case stdio(command: [String], environment: [String: String], directory: String?)
        /// Streamable HTTP. Header values name environment variables (`Bearer ${TOKEN}`), never secrets.
        case http(url: String, headers: [String: String])
    }

    /// The name under `mcp_servers:`, the prefix of its tools' names (`NAME__tool`).
    public var name: String
    public var endpoint: Endpoint
    /// Its tools run without a yes (`trusted: true`), unless a tool says otherwise under `tools:`.
    public var trusted: Bool
    /// Per tool: `tools: {TOOL: {trusted: BOOL}}`.
    public var toolTrust: [String: Bool]
    /// How long one call (and the start) may take before the server is called hung.
    public var timeout: Duration
    /// On in every session that knows it (`enabled: true`), without a preset or `/mcp on` asking.
    public var enabledByDefault: Bool
    /// Where it was declared (`config /path`, `preset NAME`), for messages.
    public var origin: String

    public static let defaultTimeout: Duration = .seconds(60)

    public init(
        name: String, endpoint: Endpoint, trusted: Bool = false, toolTrust: [String: Bool] = [:],
        timeout: Duration = MCPServerConfig.defaultTimeout, enabledByDefault: Bool = false, origin: String = ""
    ) {
        self.name = name
        self.endpoint = endpoint
        self.trusted = trusted
        self.toolTrust = toolTrust
        self.timeout = timeout
        self.enabledByDefault = enabledByDefault
        self.origin = origin
    }

    /// Whether `tool` runs without asking.
    public func isTrusted(_ tool: String) -> Bool { toolTrust[tool] ?? trusted }

    /// The entry `name` of a checked `mcp_servers:` mapping. Throws, naming the key path, what the schema cannot
    /// say (a command that is not a list of strings, a name that cannot prefix a tool's).
    public init(name: String, entry: JSONObject, origin: String) throws(MCPServerError) {
        let path = "mcp_servers.\(name)"
        guard MCPToolName.isUsableServerName(name) else {
            throw MCPServerError(
                .configuration, server: name,
                "\(origin): \(path): a server's name is letters, digits, '-' and '_' (not first or last, no '__'), at most 32 of them"
            )
        }
        let timeout = entry["timeout"]?.doubleValue.map { Duration.milliseconds(Int64($0 * 1000)) }
        let trust = (entry["tools"]?.objectValue ?? [:]).compactMap { tool, options in
            options["trusted"]?.boolValue.map { (tool, $0) }
        }
        let endpoint: Endpoint
        if let url = entry["url"]?.stringValue {
            var headers: [String: String] = [:]
            for (header, value) in entry["headers"]?.objectValue ?? [:] { headers[header] = value.stringValue ?? "" }
            endpoint = .http(url: url, headers: headers)
        } else {
            var command: [String]
            switch entry["command"] {
            case .string(let program)?: command = [program]
            case .array(let words)?: command = words.compactMap(\.stringValue)
            default: command = []
            }
            command += (entry["args"]?.arrayValue ?? []).compactMap(\.stringValue)
            guard let program = command.first, !program.isEmpty else {
                throw MCPServerError(
                    .configuration, server: name, "\(origin): \(path): give `command` (a program) or `url`")
            }
            var environment: [String: String] = [:]
            for (key, value) in entry["env"]?.objectValue ?? [:] { environment[key] = value.stringValue ?? "" }
            endpoint = .stdio(command: command, environment: environment, directory: entry["cwd"]?.stringValue)
        }
        self.init(
            name: name, endpoint: endpoint, trusted: entry["trusted"]?.boolValue ?? false,
            toolTrust: Dictionary(trust, uniquingKeysWith: { $1 }), timeout: timeout ?? Self.defaultTimeout,
            enabledByDefault: entry["enabled"]?.boolValue ?? false, origin: origin)
    }

    /// Every entry of a checked `mcp_servers:` mapping.
    public static func all(in servers: JSONObject, origin: String) throws(MCPServerError) -> [MCPServerConfig] {
        var result: [MCPServerConfig] = []
        for (name, entry) in servers {
            result.append(try MCPServerConfig(name: name, entry: entry.objectValue ?? [:], origin: origin))
        }
        return result
    }
}
