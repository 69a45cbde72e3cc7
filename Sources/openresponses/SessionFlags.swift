import ArgumentParser
import Console
import Foundation
import ResponsesAPI
import Workbench

/// The options `chat` and `ask` share, declared once.
struct SessionFlags: ParsableArguments {
    @Option(name: .shortAndLong, help: "Model to use.")
    var model: String?

    @Option(name: .long, help: "Preset to start from (a name, or a path to a preset file).")
    var preset: String?

    @Option(name: .long, help: "Instructions (system prompt).")
    var instructions: String?

    @Flag(name: .long, help: "Send stream: false: ask for whole answers instead of streamed ones.")
    var noStream = false

    @Option(name: .customLong("set"), help: "Set a setting: KEY=VALUE (repeatable; openresponses settings lists them).")
    var assignments: [String] = []

    @Option(
        name: [.customShort("v"), .customLong("var")],
        help: ArgumentHelp(
            "Give the preset's {{NAME}} a value (repeatable); piped input is never read for placeholders.",
            valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: .long,
        help: "The server to talk to: a name from config.yaml's providers: (openresponses providers list), or default.")
    var provider: String?

    /// This process's environment with the session's provider chosen: `--provider`, else
    /// `OPENRESPONSES_PROVIDER` from the shell, else the preset's `provider:`, else the config file's. The
    /// settings stack and the context are made from it. A preset naming an unknown provider is a usage
    /// error at its line.
    func environment() throws -> AppEnvironment {
        if let provider { return processEnvironment.choosing(provider: provider) }
        do {
            return processEnvironment.choosing(
                provider: try ProviderCatalog.selectedName(environment: processEnvironment, preset: preset))
        } catch {
            for line in error.message.split(separator: "\n") {
                FileDescriptorOutput.standardError.write("error: \(line)\n")
            }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    var options: SessionOptions {
        SessionOptions(
            model: model, preset: preset, instructions: instructions, stream: noStream ? false : nil,
            assignments: assignments, variables: variables)
    }
}
