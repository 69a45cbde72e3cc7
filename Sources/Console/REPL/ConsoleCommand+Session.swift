import Foundation
import Workbench

extension ConsoleCommand {
    /// The session itself: a new conversation, the inspector, help, leaving.
    static let sessionCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/new", help: [("/new", "start a new conversation")],
            run: { repl, _ in
                repl.newConversation()
                return .continue
            }),
        ConsoleCommand(
            name: "/inspect",
            help: [("/inspect [last|ID]", "show an exchange from the inspector (the last one by default)")],
            complete: firstWord(["last"]),
            run: { repl, input in
                repl.inspect(input.words.first)
                return .continue
            }),
        ConsoleCommand(
            name: "/help", help: [("/help", "show this help")],
            run: { repl, _ in
                repl.context.output.write(REPL.help)
                return .continue
            }),
        ConsoleCommand(
            name: "/quit", aliases: ["/exit", "/q"],
            help: [("/quit", "leave (Ctrl-D, or Ctrl-C twice at an empty prompt)")],
            run: { _, _ in .quit }),
    ]
}
