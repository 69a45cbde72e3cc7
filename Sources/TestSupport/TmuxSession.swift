import Foundation

/// A real terminal: a detached tmux session on a private socket, driven with send-keys and read with
/// capture-pane. Used to test the console as a person uses it.
public final class TmuxSession: Sendable {
    public let socket: String
    public let name: String

    public static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static var tmuxPath: String {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "tmux"
    }

    /// Starts `bash` (no profile) in a `width`×`height` terminal.
    public init(width: Int = 110, height: Int = 40) throws {
        socket = "openresponses-test-\(UUID().uuidString.prefix(8))"
        name = "t"
        _ = try tmux(
            captureOutput: false,
            [
                "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height),
                "env -i HOME=\(NSHomeDirectory()) PATH=/usr/bin:/bin TERM=xterm-256color PS1='$ ' bash --norc --noprofile",
            ])
    }

    @discardableResult
    public func tmux(captureOutput: Bool = true, _ arguments: [String]) throws -> String {
        try Subprocess.runBlocking(
            Self.tmuxPath, ["-L", socket] + arguments, environment: ["PATH": "/usr/bin:/bin"],
            captureOutput: captureOutput
        ).stdout
    }

    /// Types `text` literally, then presses Enter when `enter` is true.
    public func type(_ text: String, enter: Bool = true) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
        if enter { try tmux(["send-keys", "-t", name, "Enter"]) }
    }

    /// Presses keys by tmux name (`C-c`, `C-d`, `Up`, `Enter`).
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// The visible screen plus scrollback, as text; with `escapes`, colours and attributes are kept as
    /// ANSI escape sequences.
    public func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", name] + (escapes ? ["-e"] : []))
    }

    /// Appends everything the pane's programs write, escapes included, to `file` (tmux pipe-pane): a line
    /// drawn and then overwritten in place stays there for a test to find, however late it looks.
    public func recordOutput(to file: URL) throws {
        try tmux(["pipe-pane", "-t", name, "-o", "cat >> '\(file.path)'"])
    }

    /// What the programs wrote in a recording, without the shell's echo of the typed lines: bash turns
    /// bracketed paste off (`ESC[?2004l`) when it runs a line and on (`ESC[?2004h`) when it prompts again,
    /// and its redraw of a long typed line puts a carriage return before the character at each wrap, which
    /// would look like a program's bare CR. Without those marks (another shell) the whole recording.
    public static func programsOutput(_ recorded: String) -> String {
        let pieces = recorded.components(separatedBy: "\u{1B}[?2004l")
        guard pieces.count > 1 else { return recorded }
        return pieces.dropFirst().map { $0.components(separatedBy: "\u{1B}[?2004h")[0] }.joined()
    }

    /// Waits until `predicate` holds for the screen; returns the screen. Throws with the screen on timeout.
    @discardableResult
    public func waitFor(
        timeout: Duration = .seconds(20), _ what: String, _ predicate: (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = try screen()
            if predicate(current) { return current }
            try await Task.sleep(for: .milliseconds(40))
        }
        // One last look: on a loaded machine the sleep above can outlast the deadline by seconds, and the
        // screen captured before it is stale by then.
        let last = try screen()
        if predicate(last) { return last }
        throw TmuxTimeout(what: what, screen: last)
    }

    /// Waits until the screen contains `text` `count` times or more.
    @discardableResult
    public func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(20)) async throws -> String {
        try await waitFor(timeout: timeout, "'\(text)' ×\(count)") {
            $0.components(separatedBy: text).count - 1 >= count
        }
    }

    public func kill() {
        _ = try? tmux(["kill-server"])
    }
}

public struct TmuxTimeout: Error, CustomStringConvertible {
    public var what: String
    public var screen: String
    public var description: String { "timed out waiting for \(what); the screen was:\n\(screen)" }
}
