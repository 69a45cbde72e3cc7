import Foundation

/// The program's own files (presets, the inspector's report template): in the checkout the running binary
/// was built in (the folder holding `Package.swift`), else in `lib/openresponses` beside an installed binary
/// (`scripts/install.sh`). The binary is found through `/proc/self/exe` on Linux, so this works from any
/// directory and when the program was started by its name on `PATH`.
public enum ShippedFiles {
    /// `relative` (a file or folder) where the running program's files are, or nil.
    public static func url(_ relative: String) -> URL? {
        let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? ""))
            .resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate.path)
            {
                return candidate
            }
            let installed = directory.appendingPathComponent("lib/openresponses").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: installed.path) { return installed }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}
