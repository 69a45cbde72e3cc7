import ArgumentParser
import Console
import Foundation
import Workbench

struct Ask: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ask", _superCommandName: "openresponses",
        abstract: "Send one prompt and print the answer as it arrives.",
        // One line per paragraph: the help wraps it to the terminal's width.
        discussion: """
            The prompt comes from the arguments, or from stdin when it is piped; with both, the piped text is \
            appended to the prompt as context.

            Exit status: 0 completed, 1 API or network error, 2 bad usage or input, 3 incomplete, 130 interrupted.
            """)

    @Option(name: .shortAndLong, help: "Model to use.")
    var model: String?

    @Option(name: .long, help: "Preset to start from (by name).")
    var preset: String?

    @Option(name: .long, help: "Instructions (system prompt).")
    var instructions: String?

    @Flag(name: .long, help: "Send stream: false and print the whole answer at the end.")
    var noStream = false

    @Flag(name: .long, help: "Print the final response object as JSON instead of its text.")
    var json = false

    @Option(name: .customLong("set"), help: "Set a setting: KEY=VALUE (repeatable; openresponses settings lists them).")
    var assignments: [String] = []

    @Flag(name: .long, help: "Print the exact request body that would be sent, and send nothing.")
    var dryRun = false

    @Argument(help: "The prompt.")
    var prompt: [String] = []

    func run() throws {
        let piped = isatty(0) == 0 ? StandardInput.readAll() : nil
        let options = AskOptions(
            prompt: prompt.isEmpty ? nil : prompt.joined(separator: " "), stdinText: piped, model: model,
            preset: preset, instructions: instructions, stream: !noStream, printJSON: json, assignments: assignments,
            dryRun: dryRun)
        let context = try makeContext(environment: .process)
        let interrupt = try InterruptPipe()
        interrupt.install()
        defer { interrupt.uninstall() }
        let bridge = MainThreadBridge(interrupt: interrupt)
        let (status, _) = bridge.run {
            let status = await AskRunner(context: context).run(options)
            await context.shutdown()
            return status
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}

enum StandardInput {
    /// Everything on stdin until EOF; nil when stdin is closed or unreadable.
    static func readAll() -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count > 0 {
                bytes.append(contentsOf: buffer[..<count])
            } else if count == 0 {
                break
            } else if errno == EINTR {
                continue
            } else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
