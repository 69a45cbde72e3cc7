import Foundation
import Workbench

extension ConsoleCommand {
    /// The conversation: attachments, the editor, how turns chain, retrying, past conversations.
    static let conversationCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/attach",
            help: [("/attach PATH...", "attach files to the next message (images, PDFs, text); alone: list them")],
            run: { repl, input in
                repl.attachCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/detach", help: [("/detach", "drop the attachments")],
            run: { repl, _ in
                repl.detachCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/edit", help: [("/edit", "write the next message in $EDITOR")],
            run: { repl, _ in
                repl.editCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/mode",
            help: [
                (
                    "/mode stored|stateless",
                    "chain with previous_response_id, or send the whole history with store: false"
                )
            ],
            complete: firstWord(["stored", "stateless"]),
            run: { repl, input in
                repl.modeCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/conversation",
            help: [("/conversation new|use ID", "keep the turns in a Conversations API conversation")],
            complete: firstWord(["new", "use"]),
            run: { repl, input in
                repl.conversationCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/retry", help: [("/retry", "send the last message again")],
            run: { repl, _ in
                repl.retryCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/history", help: [("/history [PAGE]", "past conversations in the inspector")],
            run: { repl, input in
                repl.historyCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/resume", help: [("/resume ID", "continue a past conversation (an id from /history)")],
            run: { repl, input in
                repl.resumeCommand(input.rest)
                return .continue
            }),
    ]
}
