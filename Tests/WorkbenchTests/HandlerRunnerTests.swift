import Workbench
import Foundation
import ResponsesAPI
import Testing

/// Function tools' local handlers, run for real: output, failures and timeouts become results.
@Suite("Handler runner")
struct HandlerRunnerTests {
    func handler(_ command: JSONValue, timeout: Int = 5, directory: String = "/tmp") throws -> HandlerRunner.Handler {
        try #require(HandlerRunner.Handler(tool: [
            "type": "function", "name": "t",
            "handler": ["command": command, "timeout_seconds": .integer(timeout), "working_directory": .string(directory)],
        ]))
    }

    @Test func theArgumentsGoInOnStdinAndStdoutComesBack() throws {
        let outcome = HandlerRunner().run(try handler(["sh", "-c", "tr a-z A-Z"]), arguments: #"{"city":"paris"}"#)
        #expect(outcome == .output(#"{"CITY":"PARIS"}"#))
    }

    @Test func aStringCommandRunsInTheWorkingDirectory() throws {
        let outcome = HandlerRunner().run(try handler("pwd", directory: "/usr"), arguments: "{}")
        #expect(outcome == .output("/usr"))
    }

    @Test func aFailingHandlerIsAnErrorResultWithItsStderr() throws {
        let outcome = HandlerRunner().run(try handler("echo oops >&2; exit 3"), arguments: "{}")
        #expect(outcome == .failed("the handler failed (exit status 3): oops"))
        #expect(outcome.resultText == #"{"error":"the handler failed (exit status 3): oops"}"#)
    }

    @Test func aHandlerThatRunsTooLongIsKilledWithItsChildren() throws {
        let start = ContinuousClock.now
        let outcome = HandlerRunner().run(try handler("sleep 30 & sleep 30", timeout: 1), arguments: "{}")
        #expect(outcome == .failed("the handler timed out after 1 s"))
        #expect(ContinuousClock.now - start < .seconds(20), "the whole process group went, not only the shell")
    }

    @Test func aCommandThatDoesNotExistIsAnErrorResult() throws {
        let outcome = HandlerRunner().run(try handler(["no-such-command-xyz"]), arguments: "{}")
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.hasPrefix("the handler failed (exit status 127)"))
    }
}
