#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTerminal
import Foundation

/// Runs a command that takes over the terminal (an editor) and waits for it.
enum TerminalCommand {
    /// Runs `sh -c script` with `argument` as `$1`, stdin/stdout/stderr inherited; returns the exit status.
    static func run(_ script: String, argument: String) -> Int32 {
        let words: [String] = ["/bin/sh", "-c", script, "sh", argument]
        let argv = words.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard or_spawn(&pid, "/bin/sh", argv, envp, -1, -1, -1, 0) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
