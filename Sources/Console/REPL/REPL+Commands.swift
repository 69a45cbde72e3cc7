import Foundation
import Inspector
import Library
import Workbench

/// Slash commands: dispatch through `ConsoleCommand.all`, `/help` made from it, and the few commands small
/// enough to live here (`/new`, `/detach`, `/inspect`).
extension REPL {
    func handleCommand(_ line: String) -> CommandResult {
        let name = String(line.prefix { $0 != " " })
        let rest = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let command = ConsoleCommand.named(name) else {
            let hint =
                SettingsRegistry.closest(to: name, in: ConsoleCommand.names).map { " (did you mean \($0)?)" } ?? ""
            context.diagnostics.write("unknown command \(name)\(hint); /help lists the commands\n")
            return .continue
        }
        return command.run(self, CommandInput(rest: rest))
    }

    /// `/new`: a new conversation in the same mode (a Conversations API one goes back to stored mode:
    /// `/conversation new` makes a new one of those).
    func newConversation() {
        let mode = conversation.mode == .conversation ? Conversation.Mode.stored : conversation.mode
        conversation = Conversation(sessionID: UUID().uuidString.lowercased(), mode: mode)
        attachments.removeAll()
        pendingFragments = FragmentBatch()
        context.output.write("New conversation (\(mode.rawValue)).\n")
    }

    func detachCommand() {
        let count = attachments.count
        attachments.removeAll()
        context.output.write(
            count == 0 ? "Nothing attached.\n" : "Dropped \(count) attachment\(count == 1 ? "" : "s").\n")
    }

    /// Where the summaries start: a longer usage puts its summary on the next line, in the same column.
    static let helpColumn = 23

    static let help: String = {
        var text = """
            Type a message and press Enter to send it; end a line with \\ to go on, or put the message between
            two lines of \"\"\". Each turn continues the conversation.

            """
        for (usage, summary) in ConsoleCommand.all.flatMap(\.help) {
            let head = "  " + usage
            text +=
                head.count + 2 <= helpColumn
                ? head.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + summary + "\n"
                : head + "\n" + String(repeating: " ", count: helpColumn) + summary + "\n"
        }
        return text
            + "Ctrl-C while an answer streams stops it and keeps what arrived; Ctrl-C at the prompt clears the line.\n"
    }()

    /// Words of a command line; "double quotes" keep spaces together.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// `/inspect [last|ID]`: an exchange as `inspect show` prints it.
    func inspect(_ argument: String?) {
        guard let store = context.recorder?.store else {
            context.diagnostics.write("the inspector is off (its store could not be opened)\n")
            return
        }
        let wanted: Int64?
        switch argument {
        case nil, "last": wanted = nil
        case let text?:
            guard let id = Int64(text) else {
                context.diagnostics.write("/inspect takes 'last' or an exchange id (a number), not '\(text)'\n")
                return
            }
            wanted = id
        }
        let (detail, _) = bridge.run { () async -> ExchangeDetail? in
            var id = wanted
            if id == nil { id = (try? await store.recentExchanges(limit: 1))?.first?.id }
            guard let id else { return nil }
            return try? await store.exchange(id: id)
        }
        guard let detail else {
            context.diagnostics.write(wanted.map { "no exchange \($0)\n" } ?? "no exchange recorded yet\n")
            return
        }
        context.output.write(InspectorPresenter().showText(detail))
    }
}
