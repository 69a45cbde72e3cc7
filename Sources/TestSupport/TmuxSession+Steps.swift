import Foundation

/// The steps a terminal test takes again and again at the console's prompt, each one line.
extension TmuxSession {
    /// Types `line`, presses Enter and waits until the screen shows `marker` `count` times or more;
    /// returns the screen. Throws with the screen when it does not show in `timeout`.
    @discardableResult
    public func send(
        _ line: String, until marker: String, count: Int = 1, timeout: Duration = .seconds(20)
    ) async throws -> String {
        try type(line)
        return try await waitFor(marker, count: count, timeout: timeout)
    }

    /// Takes each step in turn: types its line, presses Enter and waits until the screen shows its marker.
    public func send(steps: [(line: String, marker: String)]) async throws {
        for step in steps { try await send(step.line, until: step.marker) }
    }

    /// Types `start` without Enter, presses Tab and waits until the screen shows `completed`.
    @discardableResult
    public func complete(_ start: String, to completed: String) async throws -> String {
        try type(start, enter: false)
        try press("Tab")
        return try await waitFor(completed)
    }

    /// Leaves the console, with Ctrl-D or by typing `command` (`/quit`), and waits for the shell's prompt;
    /// returns the screen.
    @discardableResult
    public func quit(typing command: String? = nil) async throws -> String {
        if let command { try type(command) } else { try press("C-d") }
        return try await waitFor("\n$ ")
    }

    /// Once the shell shows its prompt, types the built binary's command line with `environment`:
    /// `arguments` as the shell reads them (quoted where need be, `; echo EXITED-$?` after them if wanted).
    public func runBinary(_ arguments: String, environment: [String: String]) async throws {
        // A generous deadline: every suite starts at once; it bounds a hang and measures nothing.
        try await waitFor("$ ", timeout: .seconds(60))
        let env = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        try type(
            (["env", env, Subprocess.openresponsesBinary] + (arguments.isEmpty ? [] : [arguments])).joined(
                separator: " "))
    }
}
