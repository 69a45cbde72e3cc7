import ResponsesAPI
import Workbench

/// What a command's runner reads and writes through: its environment, and where its output and its
/// diagnostics go (stdout and stderr, or recording sinks in tests).
public struct CommandIO: Sendable {
    let environment: AppEnvironment
    let output: any OutputSink
    let diagnostics: any OutputSink

    public init(
        environment: AppEnvironment, output: any OutputSink = FileDescriptorOutput.standardOutput,
        diagnostics: any OutputSink = FileDescriptorOutput.standardError
    ) {
        self.environment = environment
        self.output = output
        self.diagnostics = diagnostics
    }
}

/// A runner that reads and writes through a `CommandIO`.
protocol CommandIORunner {
    var io: CommandIO { get }
}

extension CommandIORunner {
    var environment: AppEnvironment { io.environment }
    var output: any OutputSink { io.output }
    var diagnostics: any OutputSink { io.diagnostics }

    /// `body`'s exit status, or its error reported on stderr; `cleanup` runs after either (a service's clients
    /// finished, the MCP servers a command started stopped).
    func reporting(_ body: () async throws -> ExitStatus, cleanup: () async -> Void) async -> ExitStatus {
        let status: ExitStatus
        do { status = try await body() } catch { status = ErrorReport.write(error, to: diagnostics) }
        await cleanup()
        return status
    }
}
