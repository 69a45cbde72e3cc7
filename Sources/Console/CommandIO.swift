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
}
