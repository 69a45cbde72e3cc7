import Foundation
import ResponsesAPI

/// `config.yaml` in the data directory: settings every session starts from (over the built-in defaults,
/// under a preset), and the preset to use when none is named. Same keys and checks as a preset.
public struct ConfigFile: Sendable, Hashable {
    public var url: URL
    public var preset: String?
    /// The provider a session uses when neither `--provider` nor its preset names one, and where it is written.
    public var provider: String?
    public var providerLocation: SourceLocation?
    public var template: JSONObject
    public var console: JSONObject
    public var extraBody: JSONObject
    /// The document library's options (`library:`): chunk_size, chunk_overlap, ocr, passages.
    public var library: JSONObject = [:]
    /// Named providers (`providers:`), by name.
    public var providers: JSONObject = [:]
    /// Local MCP servers (`mcp_servers:`) and the ones on in every session (`mcp:`).
    public var mcpServers: JSONObject = [:]
    public var mcp: [String] = []
    /// Model aliases (`aliases:`).
    public var aliases = ModelAliases()
    /// `inspector.url`: a team's PostgreSQL inspector (Docs/team.md), and where the file says it.
    public var inspectorURL: String?
    public var inspectorURLLocation: SourceLocation?

    public static func url(environment: AppEnvironment) -> URL {
        if let path = environment["OPENRESPONSES_CONFIG"] { return URL(fileURLWithPath: path) }
        return environment.dataDirectory.appendingPathComponent("config.yaml")
    }

    /// The config file, or nil when there is none.
    public static func load(environment: AppEnvironment) throws(PresetError) -> ConfigFile? {
        let url = url(environment: environment)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try load(from: url)
    }

    public static func load(from url: URL) throws(PresetError) -> ConfigFile {
        let text = try PresetDocument.read(url)
        var document = try PresetDocument.check(
            text, path: url.path, spec: PresetSchema.config, directory: url.deletingLastPathComponent())
        let written = document.object["aliases"]?.objectValue ?? [:]
        for problem in ModelAliases.problems(in: written) {
            document.report("aliases.\(problem.alias)", problem.message)
        }
        try document.finish()
        var config = ConfigFile(
            url: url, preset: document.object["preset"]?.stringValue, template: document.template,
            console: document.object["console"]?.objectValue ?? [:],
            extraBody: document.object["extra_body"]?.objectValue ?? [:])
        config.library = document.object["library"]?.objectValue ?? [:]
        config.providers = document.object["providers"]?.objectValue ?? [:]
        config.provider = document.object["provider"]?.stringValue
        config.mcpServers = document.object["mcp_servers"]?.objectValue ?? [:]
        config.mcp = (document.object["mcp"]?.arrayValue ?? []).compactMap(\.stringValue)
        config.aliases = ModelAliases(
            Dictionary(written.compactMap { key, value in value.stringValue.map { (key, $0) } }) { $1 })
        if config.provider != nil { config.providerLocation = document.validator.location(forKeyPath: "provider") }
        config.inspectorURL = document.object["inspector"]?["url"]?.stringValue
        if config.inspectorURL != nil {
            config.inspectorURLLocation = document.validator.location(forKeyPath: "inspector.url")
        }
        return config
    }
}
