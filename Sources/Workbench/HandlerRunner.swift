import Foundation
import ResponsesAPI
import Spawning

/// Runs a function tool's local handler: the command (a string for `sh -c`, or a list of words) in its
/// working directory, with the call's arguments JSON on stdin. Its stdout is the result. A non-zero exit,
/// a timeout (the whole process group is killed) or a command that cannot start becomes an error result
/// for the model, never a crash.
public struct HandlerRunner: Sendable {
    public struct Handler: Sendable, Hashable {
        public var command: [String]
        public var usesShell: Bool
        public var workingDirectory: String
        public var timeoutSeconds: Int
        public var trusted: Bool

        /// The handler of a function tool in a preset template (nil when it has none).
        public init?(tool: JSONValue) {
            guard let handler = tool["handler"] else { return nil }
            switch handler["command"] {
            case .string(let line)?:
                command = [line]
                usesShell = true
            case .array(let words)?:
                command = words.compactMap(\.stringValue)
                usesShell = false
            default:
                return nil
            }
            guard !command.isEmpty else { return nil }
            workingDirectory = handler["working_directory"]?.stringValue ?? FileManager.default.currentDirectoryPath
            timeoutSeconds = handler["timeout_seconds"]?.intValue ?? 30
            trusted = handler["trusted"]?.boolValue ?? false
        }
    }

    public enum Outcome: Sendable, Hashable {
        case output(String)
        case failed(String)

        /// The `output` of the `function_call_output` item.
        public var resultText: String {
            switch self {
            case .output(let text): text
            case .failed(let message): JSONValue.object(["error": .string(message)]).compactString
            }
        }
    }

    public init() {}

    /// Runs `handler` with `arguments` on stdin, on a thread of its own (`OwnThread`): until it ends, times
    /// out, or the awaiting task is cancelled (Ctrl-C), which kills its whole process group at once.
    public func run(_ handler: Handler, arguments: String) async -> Outcome {
        await OwnThread.run(cancellable: { cancellation in
            Self.runBlocking(handler, arguments: arguments, cancellation: cancellation)
        })
    }

    /// The handler run to its end on the calling thread, looking at `cancellation` at least every tenth of a
    /// second. A `ChildProcess` in a process group of its own: a timeout or a cancellation kills its helpers too.
    /// The arguments are fed as it reads them: a handler that never reads them (more than a pipe's 64 KB of
    /// them) is still timed out or stopped.
    static func runBlocking(_ handler: Handler, arguments: String, cancellation: ToolCancellation) -> Outcome {
        guard !cancellation.isCancelled else { return .failed(Self.interrupted) }
        let script =
            handler.usesShell
            ? ["-c", "cd \"$1\" && eval \"$2\"", "sh", handler.workingDirectory, handler.command[0]]
            : ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", handler.workingDirectory] + handler.command
        let child = ChildProcess(
            "/bin/sh", script, environment: ProcessInfo.processInfo.environment, input: .bytes(Array(arguments.utf8)),
            timeout: .seconds(handler.timeoutSeconds), cancellation: cancellation)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try child.runBlocking()
        } catch {
            switch error.step {
            case .pipe, .nullDevice: return .failed("cannot create pipes")
            case .start: return .failed("cannot start \(handler.command.joined(separator: " ")): \(error.reason)")
            case .read, .write: return .failed("the handler's output could not be read (poll failed)")
            }
        }
        switch outcome.end {
        case .timedOut:
            return .failed("the handler timed out after \(handler.timeoutSeconds) s")
        case .cancelled:
            return .failed(Self.interrupted)
        case .exited(0):
            return .output(String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .newlines))
        case .exited(let code), .signalled(let code):
            let reason = outcome.end == .exited(code) ? "exit status \(code)" : "killed by signal \(code)"
            let detail = String(decoding: outcome.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failed("the handler failed (\(reason))" + (detail.isEmpty ? "" : ": \(detail.prefix(500))"))
        }
    }

    /// The result of a handler stopped because the user interrupted the turn.
    static let interrupted = "the handler was interrupted"
}
