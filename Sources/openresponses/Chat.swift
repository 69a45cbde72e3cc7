import ArgumentParser
import Console
import Workbench

struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the interactive console (the default).")

    @Option(name: .shortAndLong, help: "Model to use.")
    var model: String?

    @Option(name: .long, help: "Preset to start from (by name).")
    var preset: String?

    @Option(name: .long, help: "Instructions (system prompt) for every turn.")
    var instructions: String?

    @Flag(name: .long, help: "Ask for whole answers instead of streamed ones.")
    var noStream = false

    func run() throws {
        let environment = AppEnvironment.process
        let context = try makeContext(environment: environment)
        var settings = TurnSettings.defaults(environment: environment)
        if let preset {
            do {
                settings = try PresetLibrary(environment: environment).settings(fromPreset: preset, base: settings)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let model { settings.model = model }
        if let instructions { settings.instructions = instructions }
        if noStream { settings.stream = false }
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let status = REPL(context: context, settings: settings, interrupt: interrupt).run()
        _ = MainThreadBridge(interrupt: interrupt).run { await context.shutdown() }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
