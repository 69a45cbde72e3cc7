import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// The interactive console: plain lines are user turns (chained as the conversation mode says); lines
/// starting with `/` are commands. A turn that ends in function calls or MCP approval requests goes on
/// by itself (handlers run, approvals asked) until the model answers.
public final class REPL {
    let context: ConsoleContext
    var stack: SettingsStack
    var settings: TurnSettings { stack.effective }
    let presets: PresetLibrary
    var conversation: Conversation
    let editor: LineEditor
    let interrupt: InterruptPipe
    let bridge: MainThreadBridge
    /// Files for the next message (`/attach`).
    var attachments: [Attachment] = []
    /// A Ctrl-C at an empty prompt was just seen; another one leaves.
    var armedToQuit = false
    /// The server was found not to keep the conversation (said once per session).
    var continuityNoticed = false
    /// Vector store ids for completion.
    let storeIDs: StoreIDCache

    public static let prompt = "> "
    public static let continuationPrompt = "… "
    /// Rounds of tool calls a single turn may go through before the console stops it.
    static let maximumToolRounds = 10

    public init(context: ConsoleContext, settings: SettingsStack, interrupt: InterruptPipe) {
        self.context = context
        self.stack = settings
        self.presets = PresetLibrary(environment: context.environment)
        self.interrupt = interrupt
        self.bridge = MainThreadBridge(interrupt: interrupt)
        self.conversation = Conversation(sessionID: UUID().uuidString.lowercased())
        self.editor = LineEditor(historyPath: context.environment.historyPath, interrupt: interrupt)
        self.storeIDs = StoreIDCache(client: context.client)
    }

    var secrets: [String] { [context.configuration.apiKey].compactMap { $0 } }

    /// Runs until /quit, Ctrl-D, or Ctrl-C twice at an empty prompt; the terminal is restored on the way out.
    public func run() -> ExitStatus {
        defer { editor.restoreTerminal() }
        let presets = self.presets
        let stores = storeIDs
        editor.complete(with: Completer(presetNames: { presets.names }, storeIDs: { stores.ids() }))
        if editor.isInteractive {
            let preset = stack.preset.map { " · preset \($0.name)" } ?? ""
            context.output.write(
                "openresponses · \(settings.model)\(preset) · \(context.configuration.baseURL)\n"
                    + "Type a message; /help for commands, Ctrl-D to quit.\n")
        }
        while true {
            switch editor.readLine(prompt: Self.prompt) {
            case .endOfInput:
                if editor.isInteractive { context.output.write("\n") }
                return .success
            case .interrupted:
                if editor.lastInterruptWasOnEmptyLine {
                    if armedToQuit { return .success }
                    armedToQuit = true
                    context.diagnostics.write("(Ctrl-C again to quit)\n")
                } else {
                    armedToQuit = false
                }
                continue
            case .line(let first):
                armedToQuit = false
                guard let line = readContinuation(of: first) else { continue }
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if text.isEmpty { continue }
                editor.remember(line, secrets: secrets)
                if text.hasPrefix("/") && !text.contains("\n") {
                    if case .quit = handleCommand(text) { return .success }
                } else {
                    runTurn(text: line)
                }
            }
        }
    }

    /// A message over several lines: each line ending in a backslash continues on the next, and a line of
    /// `"""` opens a block that another `"""` closes. Ctrl-C drops the message; nil then.
    func readContinuation(of first: String) -> String? {
        var lines: [String] = []
        if first.trimmingCharacters(in: .whitespaces) == "\"\"\"" {
            while true {
                switch editor.readLine(prompt: Self.continuationPrompt) {
                case .line(let line) where line.trimmingCharacters(in: .whitespaces) == "\"\"\"":
                    return lines.joined(separator: "\n")
                case .line(let line): lines.append(line)
                case .endOfInput: return lines.joined(separator: "\n")
                case .interrupted: return nil
                }
            }
        }
        var current = first
        while current.hasSuffix("\\") {
            lines.append(String(current.dropLast()))
            switch editor.readLine(prompt: Self.continuationPrompt) {
            case .line(let line): current = line
            case .endOfInput: current = ""
            case .interrupted: return nil
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    enum CommandResult { case `continue`, quit }

    func handleCommand(_ line: String) -> CommandResult {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        let rest = words.count > 1 ? String(line[words[1].startIndex...]).trimmingCharacters(in: .whitespaces) : ""
        switch words.first.map(String.init) {
        case "/quit", "/exit", "/q":
            return .quit
        case "/new":
            // A new Conversations API conversation takes /conversation new; /new goes back to stored mode.
            let mode = conversation.mode == .conversation ? Conversation.Mode.stored : conversation.mode
            conversation = Conversation(sessionID: UUID().uuidString.lowercased(), mode: mode)
            attachments.removeAll()
            context.output.write("New conversation (\(mode.rawValue)).\n")
        case "/help":
            context.output.write(Self.help)
        case "/inspect":
            inspect(words.dropFirst().first.map(String.init))
        case "/preset", "/presets":
            presetCommand(words.dropFirst().map(String.init))
        case "/set":
            setCommand(rest)
        case "/unset":
            unsetCommand(rest)
        case "/reset":
            resetCommand(rest)
        case "/settings":
            settingsCommand()
        case "/payload":
            payloadCommand(rest)
        case "/stream":
            streamCommand(rest)
        case "/attach":
            attachCommand(rest)
        case "/detach":
            let count = attachments.count
            attachments.removeAll()
            context.output.write(count == 0 ? "Nothing attached.\n" : "Dropped \(count) attachment\(count == 1 ? "" : "s").\n")
        case "/mode":
            modeCommand(rest)
        case "/conversation":
            conversationCommand(words.dropFirst().map(String.init))
        case "/retry":
            retryCommand()
        case "/history":
            historyCommand(rest)
        case "/resume":
            resumeCommand(rest)
        case "/edit":
            editCommand()
        case "/files":
            filesCommand(Self.words(rest), root: FilesCommand.self)
        case "/stores":
            filesCommand(Self.words(rest), root: StoresCommand.self)
        case let other:
            let hint = SettingsRegistry.closest(to: other ?? "", in: Completer.commands).map { " (did you mean \($0)?)" } ?? ""
            context.diagnostics.write("unknown command \(other ?? line)\(hint); /help lists the commands\n")
        }
        return .continue
    }

    /// The slash commands and what they do, in the order /help lists them.
    static let commands: [(usage: String, summary: String)] = [
        ("/preset list", "list presets (* marks the one in use)"),
        ("/preset use NAME", "switch to a preset (your /set values stay on top)"),
        ("/preset show [NAME]", "show a preset file (the one in use by default)"),
        ("/preset save NAME", "save the current settings as a preset in your data directory"),
        ("/preset diff A B", "show how two presets differ"),
        ("/set KEY VALUE", "change a setting for the following turns (/settings lists them)"),
        ("/unset KEY", "do not send KEY from now on"),
        ("/reset [KEY]", "drop your /set and /unset (of KEY, or all), back to the preset's values"),
        ("/settings", "show every setting in effect and where it comes from"),
        ("/payload [TEXT]", "show the exact JSON of the next request (with TEXT as the message)"),
        ("/stream on|off", "stream answers, or ask for whole ones"),
        ("/attach PATH...", "attach files to the next message (images, PDFs, text); alone: list them"),
        ("/detach", "drop the attachments"),
        ("/edit", "write the next message in $EDITOR"),
        ("/mode stored|stateless", "chain with previous_response_id, or send the whole history with store: false"),
        ("/conversation new|use ID", "keep the turns in a Conversations API conversation"),
        ("/retry", "send the last message again"),
        ("/history [PAGE]", "past conversations in the inspector"),
        ("/resume ID", "continue a past conversation (an id from /history)"),
        ("/files upload|list|show|download|delete ...", "manage files (as `openresponses files`)"),
        ("/stores create|list|show|update|delete|files|add|remove|search ...", "manage vector stores"),
        ("/stores use ID[,ID...]|none", "turn file_search on with those stores (or off); /stores shows them"),
        ("/new", "start a new conversation"),
        ("/inspect [last|ID]", "show an exchange from the inspector (the last one by default)"),
        ("/help", "show this help"),
        ("/quit", "leave (Ctrl-D, or Ctrl-C twice at an empty prompt)"),
    ]

    /// Where the summaries start: a longer usage puts its summary on the next line, in the same column.
    static let helpColumn = 23

    public static let help: String = {
        var text = """
            Type a message and press Enter to send it; end a line with \\ to go on, or put the message between
            two lines of \"\"\". Each turn continues the conversation.

            """
        for (usage, summary) in commands {
            let head = "  " + usage
            text += head.count + 2 <= helpColumn
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

    /// One user turn: the message (with any attachments), then as many tool rounds as the model needs.
    func runTurn(text: String) {
        guard let uploaded = uploadLargeAttachments() else { return }
        let input: JSONValue
        do {
            input = try Attachment.message(text: text, attachments: attachments, uploaded: uploaded)
        } catch {
            context.diagnostics.write("error: \(error)\n")
            return
        }
        attachments.removeAll()
        conversation.beginTurn(input: input)
        send(input)
    }

    /// Uploads the attachments too big to go inline; their file ids by path, or nil (nothing is sent,
    /// the attachments stay) when an upload fails.
    func uploadLargeAttachments() -> [URL: String]? {
        let limitKB = settings.console["inline_attachments_kb"]?.intValue ?? Attachment.defaultInlineLimit / 1024
        let large = attachments.filter { $0.size > limitKB * 1024 }
        guard !large.isEmpty else { return [:] }
        let client = context.client
        let diagnostics = context.diagnostics
        let progressEnabled = editor.isInteractive
        let (result, _) = bridge.run { () async -> (ids: [URL: String], error: String?) in
            var ids: [URL: String] = [:]
            for attachment in large {
                let progress = ProgressLine(output: diagnostics, enabled: progressEnabled, label: attachment.url.lastPathComponent, total: attachment.size)
                do {
                    let file = try await client.uploadFile(
                        attachment.url, purpose: attachment.uploadPurpose, mediaType: attachment.mediaType, progress: { progress.update($0) })
                    progress.finish()
                    ids[attachment.url] = file["id"]?.stringValue
                } catch {
                    progress.finish()
                    return (ids, "cannot upload \(attachment.url.lastPathComponent): \(error)")
                }
            }
            return (ids, nil)
        }
        if let error = result.error {
            context.diagnostics.write("error: \(error); nothing sent (the attachments are kept; /detach drops them)\n")
            return nil
        }
        for (url, id) in result.ids { context.output.write("[uploaded \(url.lastPathComponent) as \(id)]\n") }
        return result.ids
    }

    /// Sends `input` and follows the tool rounds it leads to.
    func send(_ firstInput: JSONValue) {
        var input = firstInput
        for round in 0...Self.maximumToolRounds {
            guard let response = sendOnce(input) else { return }
            let followUp = toolResults(for: response)
            guard !followUp.isEmpty else { return }
            if round == Self.maximumToolRounds {
                context.diagnostics.write("[stopped after \(Self.maximumToolRounds) rounds of tool calls]\n")
                return
            }
            input = .array(followUp)
        }
    }

    /// Sends one request; returns the response when the turn can go on from it.
    func sendOnce(_ input: JSONValue) -> Response? {
        let settings = self.settings
        let builder = PayloadBuilder()
        if let problem = builder.problems(settings: settings).first {
            context.diagnostics.write("error: \(problem)\n")
            return nil
        }
        var built: CreateResponseRequest
        do {
            built = try builder.build(settings: settings, conversation: conversation, input: input, for: .send(context.environment))
        } catch {
            context.diagnostics.write("error: \(error.message)\n")
            return nil
        }
        for notice in ModelCapabilities.adjust(&built) { context.diagnostics.write("note: \(notice)\n") }
        let request = built
        let client = context.client
        let output = context.output
        let options = RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings)
        let exchangeContext = ExchangeContext(preset: settings.preset, session: conversation.sessionID)
        let (outcome, _) = bridge.run {
            var renderer = TurnRenderer(output: output, options: options)
            let outcome = await TurnRunner(client: client).run(request, context: exchangeContext, renderer: &renderer)
            renderer.finish(response: outcome.error == nil ? outcome.response : nil)
            return outcome
        }
        if let error = outcome.error {
            if error.code == .cancelled {
                context.diagnostics.write("[cancelled — the partial answer is kept]\n")
                cancelBackgroundResponse(
                    outcome.response ?? outcome.partialResponse, requested: request.body["background"]?.boolValue == true)
            } else {
                context.diagnostics.write("error: \(error)\n")
            }
            return nil
        }
        conversation.record(input: input, response: outcome.response)
        guard let response = outcome.response else { return nil }
        if !continuityNoticed, let notice = Conversation.continuityNotice(request: request, response: response) {
            continuityNoticed = true
            context.diagnostics.write("note: \(notice)\n")
        }
        switch response.status {
        case .incomplete?:
            context.diagnostics.write("[incomplete: \(response.incompleteReason ?? "no reason given")]\n")
            return nil
        case .failed?:
            context.diagnostics.write("error: \(response.error?.message ?? "the response failed")\n")
            return nil
        default:
            return response
        }
    }

    /// A background response stopped with Ctrl-C is cancelled on the server too.
    func cancelBackgroundResponse(_ response: Response?, requested: Bool) {
        guard let response, requested || response.json["background"]?.boolValue == true, !response.id.isEmpty else { return }
        let client = context.client
        let id = response.id
        let (result, _) = bridge.run { () async -> String? in
            do {
                _ = try await client.cancel(id: id)
                return nil
            } catch {
                return "\(error)"
            }
        }
        context.diagnostics.write(result.map { "could not cancel \(id) on the server: \($0)\n" } ?? "[cancelled \(id) on the server]\n")
    }
}
