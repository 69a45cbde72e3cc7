import Foundation

/// Where the tests find all-MiniLM-L6-v2's files, as scripts/setup.sh installs them: `$OPENRESPONSES_MINILM_DIR`,
/// else the data directory's `models/all-MiniLM-L6-v2` (`$OPENRESPONSES_HOME`, `$XDG_DATA_HOME/openresponses`
/// or `~/.local/share/openresponses`). Suites that need the model skip without it, unless
/// `OPENRESPONSES_REQUIRE_MINILM=1` (scripts/test.sh sets it once setup has installed the model): then they
/// run and fail, so a test run that should have the model cannot pass without it.
public enum InstalledModel {
    public static let folderName = "all-MiniLM-L6-v2"

    public static var minilm: String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["OPENRESPONSES_MINILM_DIR"] { candidates.append(explicit) }
        if let home = environment["OPENRESPONSES_HOME"] { candidates.append(home + "/models/" + folderName) }
        if let xdg = environment["XDG_DATA_HOME"] { candidates.append(xdg + "/openresponses/models/" + folderName) }
        candidates.append(NSHomeDirectory() + "/.local/share/openresponses/models/" + folderName)
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/model.safetensors") }
    }

    public static var required: Bool { ProcessInfo.processInfo.environment["OPENRESPONSES_REQUIRE_MINILM"] == "1" }

    /// Whether a suite that needs the model runs.
    public static var shouldRun: Bool { required || minilm != nil }

    public static let skipReason = "all-MiniLM-L6-v2 is not installed (scripts/setup.sh installs it)"
}
