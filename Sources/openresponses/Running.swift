import ArgumentParser
import Console
import Foundation
import ResponsesAPI
import Untrusted
import Workbench

// How the subcommands run: each hands its parsed flags to a runner in Console and its exit status back.

/// This process's runtime value, resolved once: the environment as the user's shell set it (its
/// `OPENRESPONSES_PROVIDER` read as an input, never written), the terminals, the clock. A command hands down
/// a copy with the provider it chose (`choosing(provider:)`).
let processEnvironment = AppEnvironment.process

/// A runner's exit status as the process's.
func finish(_ status: ExitStatus) throws {
    if status != .success { throw ExitCode(status.rawValue) }
}

/// The console context for a command; a malformed environment is reported and exits with status 2.
func makeContext(environment: AppEnvironment) throws -> ConsoleContext {
    do {
        return try ConsoleContext(environment: environment)
    } catch {
        ErrorReport.write(error, to: FileDescriptorOutput.standardError)
        throw ExitCode(error.exitStatus.rawValue)
    }
}

/// A time flag's value, or a validation error that names the flag.
func time(_ text: String, flag: String) throws -> Date {
    do {
        return try TimeArgument.parse(text, flag: flag)
    } catch {
        throw ValidationError(error.message)
    }
}

/// Runs an `InspectRunner` command; its exit status is the process's.
func inspect(
    store: StoreOptions? = nil, _ body: @escaping @Sendable (InspectRunner) async -> ExitStatus
) throws {
    let runner = InspectRunner(CommandIO(environment: processEnvironment), readsLocal: store?.local ?? false)
    try finish(try blocking { await body(runner) })
}

/// Runs a command that talks to a server: a context for `environment` (this process's, with the provider
/// the command chose), Ctrl-C cancels, the exit status is the process's. A malformed environment is
/// reported and exits with status 2.
func withContext(
    environment: AppEnvironment = processEnvironment, _ body: @escaping @Sendable (ConsoleContext) async -> ExitStatus
) throws {
    let context = try makeContext(environment: environment)
    try finish(
        try blocking {
            let status = await body(context)
            await context.shutdown()
            return status
        })
}

/// Runs async work to completion from the (synchronous) main thread; Ctrl-C cancels it.
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let interrupt = try InterruptPipe()
    interrupt.install()
    defer { interrupt.uninstall() }
    let (result, _) = MainThreadBridge(interrupt: interrupt).run { () async -> Result<T, any Error> in
        do { return .success(try await operation()) } catch { return .failure(error) }
    }
    return try result.get()
}

/// How a command that deletes on a server asks first: nil when `skipped` (`--yes`), a y/N question on the
/// terminal otherwise; with no terminal to ask on, `refusal` is the error.
func confirmation(skipped: Bool, refusal: String) throws -> (@Sendable (TerminalText) -> Bool)? {
    if skipped { return nil }
    guard processEnvironment.terminal.standardInput else {
        FileDescriptorOutput.standardError.write("error: \(refusal)\n")
        throw ExitCode(ExitStatus.usage.rawValue)
    }
    return { question in
        FileDescriptorOutput.standardError.write(question)
        return ["y", "yes"].contains((readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased())
    }
}
