import Foundation
import ResponsesAPI
import Spawning

/// Runs the external programs the library reads documents with (poppler's, tesseract), found on `PATH`,
/// with a time limit; their output whole. Each is a `ChildProcess` in a process group of its own, with
/// /dev/null as its stdin: Ctrl-C on the terminal goes to the foreground group, and a tool in it died at the
/// same moment the console heard the interrupt, so the file being read was sometimes stored as failed
/// ("pdftotext exited with 130") before the cancellation was seen. Now the console alone hears Ctrl-C and
/// stops the tool's group through `cancellation`.
struct ToolRunner: Sendable {
    var searchPath: [String]
    var timeout: Duration
    /// Watched while a tool runs (see `ToolCancellation`); nil when nothing can interrupt it.
    var cancellation: ToolCancellation?

    init(environment: [String: String], timeout: Duration = .seconds(120)) {
        searchPath =
            (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        self.timeout = timeout
    }

    struct Result {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Where `tool` is, or nil.
    func locate(_ tool: ExternalTool) -> String? {
        searchPath.map { "\($0)/\(tool.name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` with `arguments`; a missing tool is an error naming its package, a timeout one naming
    /// the time.
    func run(_ tool: ExternalTool, _ arguments: [String], for path: String, page: Int? = nil) throws(LibraryError)
        -> Result
    {
        try run(tool, arguments, for: path, page: page, within: nil, overrun: nil)
    }

    /// `run` given `budget` instead of the runner's time limit; past it, `overrun` is the error (a cap's
    /// refusal), else the one naming the time.
    func run(
        _ tool: ExternalTool, _ arguments: [String], for path: String, page: Int? = nil, within budget: Duration?,
        overrun: LibraryError?
    ) throws(LibraryError) -> Result {
        guard let executable = locate(tool) else { throw LibraryError(path: path, page: page, tool.missing) }
        let environment = ProcessInfo.processInfo.environment
        if cancellation?.isCancelled == true { throw LibraryError(path: path, page: page, "interrupted") }
        let timeout = budget ?? self.timeout
        let child = ChildProcess(
            executable, arguments, environment: environment, timeout: timeout, cancellation: cancellation)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try child.runBlocking()
        } catch {
            throw LibraryError(path: path, page: page, "cannot run \(tool.name): \(error.detail)")
        }
        switch outcome.end {
        case .cancelled:
            throw LibraryError(path: path, page: page, "interrupted: \(tool.name) was stopped")
        case .timedOut:
            if let overrun { throw overrun }
            throw LibraryError(
                path: path, page: page, "\(tool.name) did not finish within \(timeout.components.seconds) s")
        case .exited(let status), .signalled(let status):
            return Result(
                status: outcome.end.status ?? status, output: Data(outcome.output),
                errors: String(decoding: outcome.errors, as: UTF8.self))
        }
    }
}
