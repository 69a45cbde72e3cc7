import Foundation
import ResponsesAPI
import Yams

/// A preset: a named request template (every create-response field the console supports, tools with
/// their local options) plus console options. Read from YAML or JSON and checked against
/// `PresetSchema`; every problem comes back at once, each with `file:line:column` and its key path.
public struct Preset: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var version: Int
    /// Where it was read from (nil for a preset built in memory).
    public var url: URL?
    /// Request fields as written, with schema files read in and handler directories made absolute.
    public var template: JSONObject
    public var console: JSONObject
    /// Fields sent as written, unchecked (for API fields newer than this build).
    public var extraBody: JSONObject
    /// The provider the preset is meant for (a name from config.yaml's `providers:`), and where it is written.
    public var provider: String?
    public var providerLocation: SourceLocation?
    /// Local MCP servers it declares (`mcp_servers:`, each on while it is in use) and the config file's it turns
    /// on (`mcp:`).
    public var mcpServers: JSONObject = [:]
    public var mcp: [String] = []
    /// `variables:`: each `{{name}}` its texts may use, with its default (null: none, it must be given).
    public var variables: JSONObject = [:]
    /// `input_template:`: the user's message is put at its `{{input}}` (Preset+Variables).
    public var inputTemplate: String?
    /// Where each placeholder is first written in the file, and where each variable is declared.
    public var variableLocations: [String: SourceLocation] = [:]
    public var declarationLocations: [String: SourceLocation] = [:]

    public init(
        name: String, description: String? = nil, version: Int = 1, url: URL? = nil, template: JSONObject = [:],
        console: JSONObject = [:], extraBody: JSONObject = [:], provider: String? = nil
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.url = url
        self.template = template
        self.console = console
        self.extraBody = extraBody
        self.provider = provider
    }

    public static let supportedVersion = 1

    /// Reads and checks the preset at `url`.
    public static func load(from url: URL) throws(PresetError) -> Preset {
        let text = try PresetDocument.read(url)
        return try parse(
            text, path: url.path, directory: url.deletingLastPathComponent(),
            fileName: url.deletingPathExtension().lastPathComponent, url: url)
    }

    /// Checks `text`, a preset document; relative paths in it are taken from `directory`.
    public static func parse(_ text: String, path: String, directory: URL, fileName: String, url: URL? = nil)
        throws(PresetError) -> Preset
    {
        var document = try PresetDocument.check(text, path: path, spec: PresetSchema.preset, directory: directory)
        let name = document.object["name"]?.stringValue ?? fileName
        if let written = document.object["name"]?.stringValue, written != fileName {
            document.report(
                "name", "'\(written)' does not match the file name '\(fileName)' (presets are found by file name)")
        }
        if name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            document.report("name", "'\(name)' is not a usable preset name")
        }
        for (variable, value) in document.object["variables"]?.objectValue ?? [:] {
            if !TemplateVariables.isName(variable) {
                document.report(
                    "variables.\(variable)",
                    "'\(variable)' is not a variable name (a letter or _, then letters, digits, _ or -)")
            } else if variable == TemplateVariables.inputName {
                document.report("variables.input", "{{input}} is the user's message in input_template, not a variable")
            }
            if case .array = value {
                document.report("variables.\(variable)", "a default is a single value, not a list")
            }
            if case .object = value {
                document.report("variables.\(variable)", "a default is a single value, not a mapping")
            }
        }
        try document.finish()
        var preset = Preset(
            name: name, description: document.object["description"]?.stringValue,
            version: document.object["version"]?.intValue ?? supportedVersion, url: url,
            template: document.template, console: document.object["console"]?.objectValue ?? [:],
            extraBody: document.object["extra_body"]?.objectValue ?? [:],
            provider: document.object["provider"]?.stringValue)
        if preset.provider != nil { preset.providerLocation = document.validator.location(forKeyPath: "provider") }
        preset.mcpServers = document.object["mcp_servers"]?.objectValue ?? [:]
        preset.mcp = (document.object["mcp"]?.arrayValue ?? []).compactMap(\.stringValue)
        preset.variables = document.object["variables"]?.objectValue ?? [:]
        preset.inputTemplate = document.object["input_template"]?.stringValue
        for name in preset.usedVariables + preset.variables.keys {
            if let (line, column) = TemplateVariables.location(of: name, in: text) {
                preset.variableLocations[name] = SourceLocation(path: path, line: line, column: column)
            }
            preset.declarationLocations[name] = document.validator.location(forKeyPath: "variables.\(name)")
        }
        return preset
    }

    /// The preset as a document (`version`, `name`, `description`, `provider`, the template, `console`,
    /// `extra_body`).
    public var document: JSONObject {
        var object: JSONObject = ["version": .integer(version), "name": .string(name)]
        if let description { object["description"] = .string(description) }
        if let provider { object["provider"] = .string(provider) }
        for (key, value) in template { object[key] = value }
        if !console.isEmpty { object["console"] = .object(console) }
        if !extraBody.isEmpty { object["extra_body"] = .object(extraBody) }
        if !mcpServers.isEmpty { object["mcp_servers"] = .object(mcpServers) }
        if !mcp.isEmpty { object["mcp"] = .array(mcp.map(JSONValue.string)) }
        if !variables.isEmpty { object["variables"] = .object(variables) }
        if let inputTemplate { object["input_template"] = .string(inputTemplate) }
        return object
    }

    /// The document as YAML (what `/preset save` writes and `presets show` prints).
    public var yaml: String {
        (try? Yams.serialize(node: PresetDocument.node(.object(document)), width: 100, sortKeys: false))
            ?? JSONValue.object(document).prettyPrinted()
    }
}
