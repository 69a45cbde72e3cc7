import ArgumentParser
import Console

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

    var options: SessionOptions {
        SessionOptions(model: model, preset: preset, instructions: instructions, stream: noStream ? false : nil, assignments: assignments)
    }
}
