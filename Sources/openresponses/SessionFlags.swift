import ArgumentParser
import Console
import Foundation

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

    /// `--provider` for this process: the contexts it makes read OPENRESPONSES_PROVIDER.
    func applyProvider() {
        if let provider { setenv("OPENRESPONSES_PROVIDER", provider, 1) }
    }

    var options: SessionOptions {
        SessionOptions(model: model, preset: preset, instructions: instructions, stream: noStream ? false : nil, assignments: assignments)
    }
}
