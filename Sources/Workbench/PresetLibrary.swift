import Foundation
import ResponsesAPI

/// Where presets live: `presets/` in the data directory (the user's, written by `/preset save`) over the
/// shipped ones; a user preset overrides a shipped one of the same name. Presets are found by file name
/// (`deep-reasoning.yaml` is preset `deep-reasoning`).
public struct PresetLibrary: Sendable {
    /// The user's directory first, then the shipped one.
    public var directories: [URL]
    public var userDirectory: URL

    public init(userDirectory: URL, shippedDirectory: URL?) {
        self.userDirectory = userDirectory
        self.directories = [userDirectory] + (shippedDirectory.map { [$0] } ?? [])
    }

    public init(environment: AppEnvironment) {
        self.init(
            userDirectory: environment.dataDirectory.appendingPathComponent("presets", isDirectory: true),
            shippedDirectory: Self.shippedDirectory(environment: environment))
    }

    static let extensions = ["yaml", "yml", "json"]

    /// `$OPENRESPONSES_PRESETS_DIR`, else `presets/` of the checkout the executable was built in, else
    /// `lib/openresponses/presets` beside an installed binary.
    public static func shippedDirectory(environment: AppEnvironment) -> URL? {
        if let dir = environment["OPENRESPONSES_PRESETS_DIR"] { return URL(fileURLWithPath: dir, isDirectory: true) }
        return ShippedFiles.url("presets")
    }

    /// One preset file found on disk.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var url: URL
        public var isUser: Bool
        /// A user preset hides this shipped one.
        public var isOverridden: Bool
    }

    /// Every preset file, by name; user presets first when names tie, the overridden shipped one marked.
    public func entries() -> [Entry] {
        var result: [Entry] = []
        var seen: Set<String> = []
        for directory in directories {
            let isUser = directory == userDirectory
            let files =
                (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
            var names: Set<String> = []
            for url in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
            where Self.extensions.contains(url.pathExtension.lowercased()) {
                let name = url.deletingPathExtension().lastPathComponent
                guard names.insert(name).inserted else { continue }
                result.append(Entry(name: name, url: url, isUser: isUser, isOverridden: seen.contains(name)))
            }
            seen.formUnion(names)
        }
        return result.sorted { ($0.name, $0.isOverridden ? 1 : 0) < ($1.name, $1.isOverridden ? 1 : 0) }
    }

    /// The names `/preset use` completes.
    public var names: [String] { entries().filter { !$0.isOverridden }.map(\.name) }

    /// The file of preset `name`, or nil.
    public func locate(_ name: String) -> URL? {
        for directory in directories {
            for ext in Self.extensions {
                let url = directory.appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Loads preset `name`, or a preset file when `name` is a path (contains `/` or ends in .yaml/.json).
    public func load(_ name: String) throws(PresetError) -> Preset {
        if name.contains("/") || Self.extensions.contains((name as NSString).pathExtension.lowercased()) {
            return try Preset.load(from: URL(fileURLWithPath: name))
        }
        guard let url = locate(name) else {
            let known = names
            let hint = SettingsRegistry.closest(to: name, in: known).map { " (did you mean \($0)?)" } ?? ""
            let list = known.isEmpty ? "there are none yet" : "known: " + known.joined(separator: ", ")
            throw PresetError(message: "no preset named '\(name)'\(hint); \(list)")
        }
        return try Preset.load(from: url)
    }

    /// Writes `preset` to the user's directory (created 0700; the file 0600) and returns its path.
    @discardableResult
    public func save(_ preset: Preset) throws(PresetError) -> URL {
        let url = userDirectory.appendingPathComponent("\(preset.name).yaml")
        do {
            try FileManager.default.createDirectory(
                at: userDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for ext in Self.extensions where ext != "yaml" {
                try? FileManager.default.removeItem(at: userDirectory.appendingPathComponent("\(preset.name).\(ext)"))
            }
            let data = Data(preset.yaml.utf8)
            if FileManager.default.fileExists(atPath: url.path) {
                try data.write(to: url)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            } else {
                guard
                    FileManager.default.createFile(
                        atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
                else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
        } catch {
            throw PresetError(message: "\(url.path): cannot write: \(error.localizedDescription)")
        }
        return url
    }
}
