import ArgumentParser
import Console
import Workbench

struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chat", abstract: "Open the interactive console (the default).")

    @Option(name: .shortAndLong, help: "Model to use.")
    var model: String?

    @Option(name: .long, help: "Preset to start from (a name, or a path to a preset file).")
    var preset: String?

    @Option(name: .long, help: "Instructions (system prompt) for every turn.")
    var instructions: String?

    @Flag(name: .long, help: "Ask for whole answers instead of streamed ones.")
    var noStream = false

    @Option(name: .customLong("set"), help: "Set a setting: KEY=VALUE (repeatable; openresponses settings lists them).")
    var assignments: [String] = []

    func run() throws {
        let environment = AppEnvironment.process
        let stack: SettingsStack
        do {
            let flags = try SettingsLayer.commandLine(
                model: model, instructions: instructions, stream: noStream ? false : nil, assignments: assignments)
            stack = try SettingsStack.load(environment: environment, preset: preset, flags: flags)
        } catch {
            for line in "\(error)".split(separator: "\n") { FileDescriptorOutput.standardError.write("error: \(line)\n") }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let context = try makeContext(environment: environment)
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let status = REPL(context: context, settings: stack, interrupt: interrupt).run()
        _ = MainThreadBridge(interrupt: interrupt).run { await context.shutdown() }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
