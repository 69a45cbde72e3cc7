import Foundation
import ResponsesAPI
import Workbench

/// `presets list|show|validate` and `settings`: presets and the settings table, written through the
/// sinks; each returns its exit status.
public struct PresetsRunner: Sendable, CommandIORunner {
    let io: CommandIO

    public init(_ io: CommandIO) {
        self.io = io
    }

    /// `presets list` (and `/preset list`, with the one in use marked).
    public func list(json: Bool) -> ExitStatus {
        let library = PresetLibrary(environment: environment)
        guard json else {
            output.write(Self.listText(library))
            return .success
        }
        let rows: [JSONValue] = library.entries().map { entry in
            let preset = try? Preset.load(from: entry.url)
            return [
                "name": .string(entry.name), "path": .string(entry.url.path),
                "source": .string(entry.isUser ? "user" : "shipped"), "overridden": .bool(entry.isOverridden),
                "valid": .bool(preset != nil), "description": preset?.description.map(JSONValue.string) ?? .null,
            ]
        }
        output.write(JSONValue.array(rows).prettyPrinted() + "\n")
        return .success
    }

    /// One line per preset with where it lives and what it is for; `current` is marked.
    static func listText(_ library: PresetLibrary, current: String? = nil) -> String {
        let entries = library.entries()
        guard !entries.isEmpty else {
            return "No presets found (looked in \(library.directories.map(\.path).joined(separator: ", "))).\n"
        }
        let width = entries.map(\.name.count).max() ?? 0
        return entries.map { entry in
            let marker = entry.name == current && !entry.isOverridden ? "* " : "  "
            let description: String
            do {
                description = try Preset.load(from: entry.url).description ?? ""
            } catch {
                description = "(invalid: presets validate \(entry.url.path) says why)"
            }
            let place = entry.isOverridden ? "shipped, overridden by yours" : entry.isUser ? "yours" : "shipped"
            return marker + entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + description
                + "  [\(place)]"
        }.joined(separator: "\n") + "\n"
    }

    /// `presets show NAME`: the preset as read (schema files inlined), as YAML or JSON.
    public func show(_ name: String, json: Bool) -> ExitStatus {
        do {
            let preset = try PresetLibrary(environment: environment).load(name)
            output.write(
                json
                    ? JSONValue.object(preset.document).prettyPrinted() + "\n"
                    : "# \(preset.url?.path ?? name)\n" + preset.yaml)
            return .success
        } catch {
            diagnostics.write(error.linesPrefixed("error: "))
            return .usage
        }
    }

    /// `presets validate [PATH...]`: each file checked (every known preset and the config file when no
    /// path is given); a problem is `path:line:column: key.path: message`.
    public func validate(_ paths: [String]) -> ExitStatus {
        var files: [(URL, isConfig: Bool)] = paths.map { (URL(fileURLWithPath: $0), false) }
        if paths.isEmpty {
            files = PresetLibrary(environment: environment).entries().map { ($0.url, false) }
            let config = ConfigFile.url(environment: environment)
            if FileManager.default.fileExists(atPath: config.path) { files.append((config, true)) }
        }
        var failures = 0
        for (url, isConfig) in files {
            do {
                if isConfig {
                    _ = try ConfigFile.load(from: url)
                } else {
                    for warning in try Preset.load(from: url).variableWarnings {
                        diagnostics.write("warning: \(warning)\n")
                    }
                }
                output.write("ok  \(url.path)\n")
            } catch {
                failures += 1
                diagnostics.write("\(error)\n")
            }
        }
        if files.isEmpty { diagnostics.write("no preset files found\n") }
        guard failures == 0 else {
            diagnostics.write("\(failures) of \(files.count) file\(files.count == 1 ? "" : "s") invalid\n")
            return .usage
        }
        return .success
    }

    /// `settings`: every setting (key, allowed values, request field, help) as text, JSON, or the
    /// Markdown of Docs/settings.md.
    public func settings(json: Bool, markdown: Bool) -> ExitStatus {
        if markdown {
            output.write(SettingsRegistry.markdown())
        } else if json {
            let rows: [JSONValue] = SettingsRegistry.all.map {
                [
                    "key": .string($0.key), "values": .string($0.allowed),
                    "api_field": $0.apiField.map(JSONValue.string) ?? .null,
                    "help": .string($0.help),
                ]
            }
            output.write(JSONValue.array(rows).prettyPrinted() + "\n")
        } else {
            let width = SettingsRegistry.all.map(\.key.count).max() ?? 0
            output.write(
                SettingsRegistry.all.map { setting in
                    setting.key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + setting.help + " ("
                        + setting.allowed + ")"
                }.joined(separator: "\n") + "\n")
        }
        return .success
    }
}
