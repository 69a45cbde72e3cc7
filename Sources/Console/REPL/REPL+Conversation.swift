import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// Attachments, conversation modes, `/retry`, `/history`, `/resume` and `/edit`.
extension REPL {
    func attachCommand(_ text: String) {
        let paths = text.split(separator: " ").map(String.init)
        guard !paths.isEmpty else {
            context.output.write(
                attachments.isEmpty
                    ? "Nothing attached (/attach PATH... adds files to the next message).\n"
                    : attachments.map { "  \($0.url.path)  \($0.mediaType), \($0.size.formatted()) bytes\n" }.joined())
            return
        }
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var added: [Attachment] = []
        for path in paths {
            do {
                added.append(try Attachment(path: path, relativeTo: directory))
            } catch {
                context.diagnostics.write("error: /attach \(error.message); nothing attached\n")
                return
            }
        }
        attachments += added
        context.output.write(
            added.map {
                "Attached \($0.url.lastPathComponent) (\($0.isImage ? "image" : $0.mediaType)) to the next message.\n"
            }.joined())
    }

    func modeCommand(_ text: String) {
        guard !text.isEmpty else {
            context.output.write(
                "Mode: \(conversation.mode.rawValue) (/mode stored|stateless; /conversation new|use ID).\n")
            return
        }
        guard let mode = Conversation.Mode(rawValue: text), mode != .conversation else {
            context.diagnostics.write(
                "error: /mode takes stored or stateless (/conversation new|use ID for the Conversations API)\n")
            return
        }
        conversation = Conversation(sessionID: UUID().uuidString.lowercased(), mode: mode)
        context.output.write(
            mode == .stored
                ? "Stored mode: each turn chains to the last with previous_response_id. New conversation.\n"
                : "Stateless mode: store: false, and each request carries the whole history. New conversation.\n")
    }

    func conversationCommand(_ arguments: [String]) {
        switch (arguments.first, arguments.count) {
        case ("new", 1):
            let client = context.client
            let (result, _) = bridge.run { () async -> (id: String?, error: String?) in
                do {
                    return (try await client.createConversation().id, nil)
                } catch {
                    return (nil, "\(error)")
                }
            }
            if let id = result.id {
                useConversation(id)
            } else {
                context.diagnostics.write(
                    "error: cannot create a conversation: \(result.error ?? "no id in the answer")\n")
            }
        case ("use", 2):
            useConversation(arguments[1])
        case (nil, _):
            context.output.write(
                conversation.conversationID.map { "Conversation \($0).\n" }
                    ?? "Not in a Conversations API conversation (mode \(conversation.mode.rawValue)).\n")
        default:
            context.diagnostics.write("usage: /conversation new | use ID\n")
        }
    }

    func useConversation(_ id: String) {
        var next = Conversation(sessionID: UUID().uuidString.lowercased(), mode: .conversation)
        next.conversationID = id
        conversation = next
        context.output.write("Turns now go to conversation \(id).\n")
    }

    func retryCommand() {
        guard conversation.lastTurn != nil else {
            context.diagnostics.write("nothing to retry yet\n")
            return
        }
        context.output.write("Retrying the last message.\n")
        send(nil)
    }

    /// `/history [PAGE]`: the sessions the inspector has seen, newest first, 20 a page.
    func historyCommand(_ text: String) {
        guard let store = context.recorder?.store else {
            context.diagnostics.write("the inspector is off, so there is no history\n")
            return
        }
        let page = max(1, Int(text) ?? 1)
        let (sessions, _) = bridge.run { () async -> [SessionSummary] in
            (try? await store.sessions(limit: 20, offset: (page - 1) * 20)) ?? []
        }
        guard !sessions.isEmpty else {
            context.output.write(page == 1 ? "No conversations recorded yet.\n" : "No page \(page).\n")
            return
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        var lines = sessions.map { session in
            let when = formatter.string(from: session.lastAt).replacingOccurrences(of: "T", with: " ")
            return
                "  \(session.id.prefix(8))  \(when)  \(session.turns) turn\(session.turns == 1 ? "" : "s")  \(ConsoleSessionDelegate.clip(session.firstInput ?? "", 60))"
        }
        lines.append("/resume ID continues one; /history \(page + 1) shows older ones.")
        context.output.write(lines.joined(separator: "\n") + "\n")
    }

    func resumeCommand(_ text: String) {
        guard !text.isEmpty, let store = context.recorder?.store else {
            context.diagnostics.write("usage: /resume ID (an id from /history)\n")
            return
        }
        let (found, _) = bridge.run { () async -> SessionSummary? in
            try? await store.session(matching: text)
        }
        guard let found, let responseID = found.lastResponseID else {
            context.diagnostics.write("error: no conversation \(text) with a stored response (see /history)\n")
            return
        }
        var resumed = Conversation(sessionID: found.id, mode: .stored)
        resumed.resume(from: responseID)
        conversation = resumed
        context.output.write("Resumed \(found.id.prefix(8)): the next turn continues from \(responseID).\n")
    }

    /// `/edit`: the next message written in `$VISUAL` or `$EDITOR` (vi when neither is set), then sent.
    func editCommand() {
        let editor = context.environment["VISUAL"] ?? context.environment["EDITOR"] ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openresponses-\(UUID().uuidString).md")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            context.diagnostics.write("error: cannot create \(file.path)\n")
            return
        }
        defer { try? FileManager.default.removeItem(at: file) }
        self.editor.restoreTerminal()
        let status = TerminalCommand.run("\(editor) \"$1\"", argument: file.path)
        guard status == 0 else {
            context.diagnostics.write("error: \(editor) exited with status \(status); nothing sent\n")
            return
        }
        let text =
            (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !text.isEmpty else {
            context.output.write("Empty message; nothing sent.\n")
            return
        }
        context.output.write("> " + text.replacingOccurrences(of: "\n", with: "\n  ") + "\n")
        runTurn(text: text)
    }
}
