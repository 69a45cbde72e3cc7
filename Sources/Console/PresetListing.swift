import Foundation
import Workbench

/// `presets list` and `/preset list`: one line per preset with where it lives and what it is for.
public enum PresetListing {
    public static func text(_ library: PresetLibrary, current: String? = nil) -> String {
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
            return marker + entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + description + "  [\(place)]"
        }.joined(separator: "\n") + "\n"
    }
}
