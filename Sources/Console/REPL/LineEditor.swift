import CReadline
import CTerminal
import Foundation
import Untrusted

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the user gave at the prompt.
enum LineInput: Sendable, Equatable {
    case line(String)
    /// Ctrl-C: the partial line was dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input.
    case endOfInput
}

// The one line readline's callback hands over; only the main thread touches it.
nonisolated(unsafe) private var deliveredLine: String?
nonisolated(unsafe) private var lineDelivered = false

private func lineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    lineDelivered = true
    if let line {
        deliveredLine = String(cString: line)
        free(line)
    } else {
        deliveredLine = nil
    }
}

// Tab completion: readline asks `attemptedCompletion` on the main thread, which asks the completer and
// hands readline the matches one by one through `completionGenerator`.
nonisolated(unsafe) private var activeCompleter: Completer?
nonisolated(unsafe) private var pendingMatches: [String] = []
nonisolated(unsafe) private var nextMatch = 0

private func completionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    if state == 0 { nextMatch = 0 }
    guard nextMatch < pendingMatches.count else { return nil }
    defer { nextMatch += 1 }
    return strdup(pendingMatches[nextMatch])
}

private func attemptedCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    guard let completer = activeCompleter, let text, let buffer = or_rl_line_buffer() else { return nil }
    let before = String(
        decoding: UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
            count: Int(start)), as: UTF8.self)
    // File names after /attach (readline's own completion); nothing but the completer's words elsewhere.
    let wantsFiles = Completer.completesFileNames(before: before)
    or_rl_set_attempted_completion_over(wantsFiles ? 0 : 1)
    if wantsFiles { return nil }
    pendingMatches = completer.candidates(before: before, word: String(cString: text))
    return rl_completion_matches(text, completionGenerator)
}

/// Line editing over readline's callback interface: stdin and the Ctrl-C pipe are polled together, so
/// Ctrl-C drops the line being edited without readline's own signal handling, and no readline function
/// runs off the main thread. History is kept in a file. When stdin is not a terminal, lines are read
/// plainly (scripts can pipe turns in).
final class LineEditor {
    private let historyPath: String?
    private let interrupt: InterruptPipe
    private let interactive: Bool
    private var pendingBytes: [UInt8] = []
    private var inputEnded = false
    static let historyLimit: Int32 = 2000

    init(historyPath: String?, interrupt: InterruptPipe) {
        self.historyPath = historyPath
        self.interrupt = interrupt
        self.interactive = isatty(0) == 1
        guard interactive else { return }
        or_save_terminal(0)
        or_rl_set_readline_name("openresponses")
        or_rl_set_catch_signals(0)
        using_history()
        if let historyPath { _ = read_history(historyPath) }
    }

    var isInteractive: Bool { interactive }

    /// Whether the line was empty when the last Ctrl-C came (two of those in a row leave the console).
    private(set) var lastInterruptWasOnEmptyLine = false

    /// Turns on Tab completion with `completer`.
    func complete(with completer: Completer) {
        guard interactive else { return }
        activeCompleter = completer
        or_rl_set_attempted_completion(attemptedCompletion)
    }

    /// `prompt` is a `TerminalText`: a question that quotes a server's or a model's text (an approval) has it
    /// cleaned, so that it cannot rewrite the line it stands on.
    func readLine(prompt: TerminalText) -> LineInput {
        interactive ? readInteractive(prompt: prompt) : readPlain()
    }

    /// Adds a line to the history (memory and file), unless it looks like it holds a secret.
    func remember(_ line: String, secrets: [String] = []) {
        guard interactive, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        guard !HistoryFilter.holdsSecret(line, secrets: secrets) else { return }
        add_history(line)
        if let historyPath {
            if append_history(1, historyPath) != 0 { _ = write_history(historyPath) }
            _ = history_truncate_file(historyPath, Self.historyLimit)
        }
    }

    /// Puts the terminal back as it was.
    func restoreTerminal() {
        guard interactive else { return }
        or_restore_terminal()
    }

    private func readInteractive(prompt: TerminalText) -> LineInput {
        lineDelivered = false
        deliveredLine = nil
        interrupt.drain()
        rl_callback_handler_install(prompt.text, lineHandler)
        defer { rl_callback_handler_remove() }
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interrupt.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .endOfInput
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                interrupt.drain()
                lastInterruptWasOnEmptyLine = or_rl_line_length() == 0
                or_rl_discard_line()
                return .interrupted
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
                if lineDelivered {
                    guard let line = deliveredLine else { return .endOfInput }
                    return .line(line)
                }
            }
        }
    }

    private func readPlain() -> LineInput {
        while true {
            if let newline = pendingBytes.firstIndex(of: 0x0A) {
                let line = String(decoding: pendingBytes[..<newline], as: UTF8.self)
                pendingBytes.removeSubrange(...newline)
                return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
            if inputEnded {
                guard !pendingBytes.isEmpty else { return .endOfInput }
                let line = String(decoding: pendingBytes, as: UTF8.self)
                pendingBytes.removeAll()
                return .line(line)
            }
            var fds = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interrupt.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                inputEnded = true
                continue
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                interrupt.drain()
                lastInterruptWasOnEmptyLine = pendingBytes.isEmpty
                return .interrupted
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(0, &buffer, buffer.count)
            if count > 0 {
                pendingBytes.append(contentsOf: buffer[..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                inputEnded = true
            }
        }
    }
}
