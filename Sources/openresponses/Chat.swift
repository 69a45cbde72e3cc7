import ArgumentParser
import Console
import ResponsesAPI
import Workbench

struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat", abstract: "Open the interactive console (the default).",
        discussion: """
            In the console, /help lists its commands. /attach PATH... sends files with the next message; /paste sends \
            what the clipboard holds (an image, or text), read with wl-paste (Wayland), xclip or xsel (X11).
            """)

    @OptionGroup var session: SessionFlags

    func run() throws {
        let environment = try session.environment()
        let stack: SettingsStack
        do {
            stack = try session.options.stack(environment: environment)
        } catch {
            for line in error.message.split(separator: "\n") {
                FileDescriptorOutput.standardError.write("error: \(line)\n")
            }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let context = try makeContext(environment: environment)
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let status = REPL(context: context, settings: stack, interrupt: interrupt, subcommands: .commandLine).run()
        _ = MainThreadBridge(interrupt: interrupt).run { await context.shutdown() }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
