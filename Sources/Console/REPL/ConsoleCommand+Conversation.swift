import Foundation
import Workbench

extension ConsoleCommand {
    /// The conversation: attachments, the editor, how turns chain, retrying, past conversations.
    static let conversationCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/attach",
            help: [("/attach PATH...", "attach files to the next message (images, PDFs, text); alone: list them")],
            action: { repl, input in repl.attachCommand(input.rest) }),
        ConsoleCommand(
            name: "/paste",
            help: [("/paste", "attach the clipboard (an image, or text) to the next message")],
            action: { repl, input in repl.pasteCommand(input.rest) }),
        ConsoleCommand(
            name: "/detach", help: [("/detach", "drop the attachments")],
            action: { repl, _ in repl.detachCommand() }),
        ConsoleCommand(
            name: "/fragment",
            help: [
                ("/fragment PATH|URL...", "add a document's text to the next message as context, once; alone: list")
            ],
            action: { repl, input in repl.fragmentCommand(input.rest) }),
        ConsoleCommand(
            name: "/fragments", help: [("/fragments [clear]", "list the next message's fragments, or drop them")],
            complete: firstWord(["clear"]),
            action: { repl, input in repl.fragmentsCommand(input.rest) }),
        ConsoleCommand(
            name: "/edit", help: [("/edit", "write the next message in $EDITOR")],
            action: { repl, _ in repl.editCommand() }),
        ConsoleCommand(
            name: "/mode",
            help: [
                (
                    "/mode stored|stateless",
                    "chain with previous_response_id, or send the whole history with store: false"
                )
            ],
            complete: firstWord(["stored", "stateless"]),
            action: { repl, input in repl.modeCommand(input.rest) }),
        ConsoleCommand(
            name: "/conversation",
            help: [("/conversation new|use ID", "keep the turns in a Conversations API conversation")],
            complete: firstWord(["new", "use"]),
            action: { repl, input in repl.conversationCommand(input.words) }),
        ConsoleCommand(
            name: "/retry", help: [("/retry", "send the last message again")],
            action: { repl, _ in repl.retryCommand() }),
        ConsoleCommand(
            name: "/history", help: [("/history [PAGE]", "past conversations in the inspector")],
            action: { repl, input in repl.historyCommand(input.rest) }),
        ConsoleCommand(
            name: "/resume", help: [("/resume ID", "continue a past conversation (an id from /history)")],
            action: { repl, input in repl.resumeCommand(input.rest) }),
    ]
}
