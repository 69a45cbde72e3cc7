import Foundation
import Workbench

extension ConsoleCommand {
    /// The session itself: a new conversation, the inspector, help, leaving.
    static let sessionCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/new", help: [("/new", "start a new conversation")],
            action: { repl, _ in repl.newConversation() }),
        ConsoleCommand(
            name: "/inspect",
            help: [("/inspect [last|ID]", "show an exchange from the inspector (the last one by default)")],
            complete: firstWord(["last"]),
            action: { repl, input in repl.inspect(input.words.first) }),
        ConsoleCommand(
            name: "/help", help: [("/help", "show this help")],
            action: { repl, _ in repl.context.output.write(REPL.help) }),
        ConsoleCommand(
            name: "/quit", aliases: ["/exit", "/q"],
            help: [("/quit", "leave (Ctrl-D, or Ctrl-C twice at an empty prompt)")],
            run: { _, _ in .quit }),
    ]
}
