import TestSupport
import Workbench

@testable import Console

extension ConsoleHarness {
    /// The console in the test process, in the harness's environment, writing to `output` and `diagnostics`.
    func context(output: RecordingOutput, diagnostics: RecordingOutput) throws -> ConsoleContext {
        try ConsoleContext(environment: AppEnvironment(variables: variables), output: output, diagnostics: diagnostics)
    }
}
