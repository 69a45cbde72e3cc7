import Logging
import Workbench

/// Which servers a session knows and which are on: config.yaml's `mcp_servers:`, then the preset's (a preset's
/// server replaces the config file's of the same name); on are the ones `enabled: true` declares, those in
/// config.yaml's or the preset's `mcp:` list, and every server the preset declares itself.
extension MCPToolbox {
    /// The servers declared for a session with `preset` (nil when none is declared at all). Throws naming the
    /// file and key of a wrong declaration, or of an `mcp:` entry that names no server.
    public static func declared(environment: AppEnvironment, preset: Preset?, logger: Logger? = nil)
        throws(MCPServerError) -> MCPToolbox?
    {
        let config: ConfigFile?
        do { config = try ConfigFile.load(environment: environment) } catch {
            throw MCPServerError(.configuration, server: "", "\(error)")
        }
        var servers: [MCPServerConfig] = []
        if let config {
            servers = try MCPServerConfig.all(in: config.mcpServers, origin: config.url.path)
        }
        if let preset {
            let own = try MCPServerConfig.all(
                in: preset.mcpServers, origin: preset.url?.path ?? "preset \(preset.name)")
            servers.removeAll { server in own.contains { $0.name == server.name } }
            servers += own
        }
        guard !servers.isEmpty else { return nil }
        var enabled = Set(preset?.mcpServers.keys ?? [])
        for (names, origin) in [
            (config?.mcp ?? [], config?.url.path ?? ""), (preset?.mcp ?? [], preset?.url?.path ?? ""),
        ] {
            for (index, name) in names.enumerated() {
                guard servers.contains(where: { $0.name == name }) else {
                    throw MCPServerError(
                        .configuration, server: name, "\(origin): mcp[\(index)]: no server '\(name)' under mcp_servers:"
                    )
                }
                enabled.insert(name)
            }
        }
        return MCPToolbox(
            servers: servers, enabled: enabled, baseEnvironment: baseEnvironment(environment),
            variables: environment.variables, logger: logger ?? Self.logger(environment))
    }

    /// The servers' log: their stderr lines are at debug, shown when `OPENRESPONSES_LOG_LEVEL=debug`.
    static func logger(_ environment: AppEnvironment) -> Logger {
        var logger = Logger(label: "openresponses.mcp")
        logger.logLevel = environment["OPENRESPONSES_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }

    /// `declared`, with `names` turned on too (`ask --mcp NAME`); nil when no server is declared and none is
    /// named.
    public static func forSession(environment: AppEnvironment, preset: Preset?, enabling names: [String])
        async throws(MCPServerError) -> MCPToolbox?
    {
        guard let toolbox = try declared(environment: environment, preset: preset) else {
            if let name = names.first {
                throw MCPServerError(
                    .unknown, server: name,
                    "no MCP server is named '\(name)': none is declared (mcp_servers: in config.yaml or a preset; Docs/mcp.md)"
                )
            }
            return nil
        }
        for name in names { try await toolbox.set(name, enabled: true) }
        return toolbox
    }

    /// What a started server's environment begins with: where programs are, the user's home and language; never
    /// the user's keys (an MCP server is a program nobody here wrote).
    static func baseEnvironment(_ environment: AppEnvironment) -> [String: String] {
        var base: [String: String] = [:]
        for name in ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER", "LOGNAME", "TZ"] {
            base[name] = environment.variables[name]
        }
        if base["PATH"] == nil { base["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        return base
    }
}
