import Foundation
import Spawning

/// Runs a command that takes over the terminal (an editor) and waits for it.
enum TerminalCommand {
    /// Runs `sh -c script` with `argument` as `$1`: a `ChildProcess` in the console's own process group (the
    /// terminal's foreground group, so the editor may read it and hears its keys), with the terminal as its
    /// stdin, stdout and stderr. Returns its exit status (128 + the signal that ended it; 127 when it cannot be
    /// started).
    static func run(_ script: String, argument: String) -> Int32 {
        let child = ChildProcess(
            "/bin/sh", ["-c", script, "sh", argument], environment: ProcessInfo.processInfo.environment,
            input: .inherited, output: .inherited, ownGroup: false)
        guard let outcome = try? child.runBlocking() else { return 127 }
        return outcome.end.status ?? 127
    }
}
