import ArgumentParser
import Console
import Foundation
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

    @Option(name: .long, help: "The server to talk to: a name from config.yaml's providers: (openresponses providers list), or default.")
    var provider: String?

    /// The provider for this process (`--provider`, else the preset's `provider:`, else the config
    /// file's): the contexts it makes read OPENRESPONSES_PROVIDER. A preset naming an unknown provider is a
    /// usage error at its line.
    func applyProvider() throws {
        if let provider {
            setenv("OPENRESPONSES_PROVIDER", provider, 1)
            return
        }
        do {
            if let name = try ProviderCatalog.selectedName(environment: .process, preset: preset) {
                setenv("OPENRESPONSES_PROVIDER", name, 1)
            }
        } catch {
            for line in error.message.split(separator: "\n") { FileDescriptorOutput.standardError.write("error: \(line)\n") }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    var options: SessionOptions {
        SessionOptions(model: model, preset: preset, instructions: instructions, stream: noStream ? false : nil, assignments: assignments)
    }
}
