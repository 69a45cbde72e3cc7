import Foundation
import ResponsesAPI
import Yams

/// Finds presets by name: the user's `presets/` in the data directory first, then the shipped ones.
///
/// A preset is YAML (or JSON) with `version`, `name`, `description` and a `request` mapping that is a
/// create-response body template (`model`, `instructions`, and any other field, sent as written).
public struct PresetLibrary: Sendable {
    public var directories: [URL]

    public init(directories: [URL]) {
        self.directories = directories
    }

    public init(environment: AppEnvironment) {
        var directories = [environment.dataDirectory.appendingPathComponent("presets", isDirectory: true)]
        if let shipped = Self.shippedDirectory(environment: environment) { directories.append(shipped) }
        self.init(directories: directories)
    }

    /// `$OPENRESPONSES_PRESETS_DIR`, else `presets/` of the checkout the executable was built in, else
    /// `share/openresponses/presets` beside an installed binary.
    public static func shippedDirectory(environment: AppEnvironment) -> URL? {
        if let dir = environment["OPENRESPONSES_PRESETS_DIR"] { return URL(fileURLWithPath: dir, isDirectory: true) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("presets", isDirectory: true)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate.path)
            {
                return candidate
            }
            let installed = directory.appendingPathComponent("share/openresponses/presets", isDirectory: true)
            if FileManager.default.fileExists(atPath: installed.path) { return installed }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The file of preset `name`, or nil.
    public func locate(_ name: String) -> URL? {
        for directory in directories {
            for ext in ["yaml", "yml", "json"] {
                let url = directory.appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Applies preset `name` over `base`.
    public func settings(fromPreset name: String, base: TurnSettings) throws -> TurnSettings {
        guard let url = locate(name) else {
            let places = directories.map(\.path).joined(separator: ", ")
            throw PresetError(message: "preset '\(name)' not found (looked in \(places))")
        }
        let preset = try Preset.load(from: url)
        var settings = base
        settings.preset = preset.name
        if let model = preset.request["model"]?.stringValue { settings.model = model }
        if let instructions = preset.request["instructions"]?.stringValue { settings.instructions = instructions }
        var extra = preset.request
        extra["model"] = nil
        extra["instructions"] = nil
        extra["stream"] = nil
        extra["input"] = nil
        for (key, value) in extra { settings.extraBody[key] = value }
        return settings
    }
}

/// A preset read from a file.
public struct Preset: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var version: Int
    public var request: JSONObject

    public static func load(from url: URL) throws -> Preset {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw PresetError(message: "\(url.path): cannot read: \(error.localizedDescription)")
        }
        let node: Any?
        do {
            node = try Yams.load(yaml: text)
        } catch let error as YamlError {
            throw PresetError(message: "\(url.path): \(error)")
        }
        guard let root = node.map(JSONValue.init(yaml:)), case .object(let object) = root else {
            throw PresetError(message: "\(url.path): a preset is a mapping with version, name and request")
        }
        guard let version = object["version"]?.intValue else {
            throw PresetError(message: "\(url.path): 'version' is missing (write version: 1)")
        }
        guard version == 1 else {
            throw PresetError(message: "\(url.path): version \(version) is not supported (this build reads version 1)")
        }
        let fallbackName = url.deletingPathExtension().lastPathComponent
        var request = JSONObject()
        if let value = object["request"] {
            guard case .object(let mapping) = value else {
                throw PresetError(message: "\(url.path): 'request' must be a mapping of create-response fields")
            }
            request = mapping
        }
        return Preset(
            name: object["name"]?.stringValue ?? fallbackName, description: object["description"]?.stringValue,
            version: version, request: request)
    }
}

public struct PresetError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

extension JSONValue {
    /// Converts what Yams loads (mappings, sequences, scalars) to JSON.
    init(yaml node: Any) {
        switch node {
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(value)
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let values as [Any]: self = .array(values.map(JSONValue.init(yaml:)))
        case let mapping as [AnyHashable: Any]:
            var object = JSONObject()
            let pairs = mapping.map { (String(describing: $0.key.base), $0.value) }.sorted { $0.0 < $1.0 }
            for (key, value) in pairs { object[key] = JSONValue(yaml: value) }
            self = .object(object)
        case is NSNull: self = .null
        default: self = .string("\(node)")
        }
    }
}
