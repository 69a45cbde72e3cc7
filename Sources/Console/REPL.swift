import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// The interactive console: plain lines are user turns chained with `previous_response_id`; lines
/// starting with `/` are commands.
public final class REPL {
    let context: ConsoleContext
    var stack: SettingsStack
    var settings: TurnSettings { stack.effective }
    let presets: PresetLibrary
    var conversation: Conversation
    let editor: LineEditor
    let interrupt: InterruptPipe
    let bridge: MainThreadBridge

    public static let prompt = "> "

    public init(context: ConsoleContext, settings: SettingsStack, interrupt: InterruptPipe) {
        self.context = context
        self.stack = settings
        self.presets = PresetLibrary(environment: context.environment)
        self.interrupt = interrupt
        self.bridge = MainThreadBridge(interrupt: interrupt)
        self.conversation = Conversation(sessionID: UUID().uuidString.lowercased())
        self.editor = LineEditor(historyPath: context.environment.historyPath, interrupt: interrupt)
    }

    /// Runs until /quit or Ctrl-D; the terminal is restored on the way out.
    public func run() -> ExitStatus {
        defer { editor.restoreTerminal() }
        let presets = self.presets
        editor.complete(with: Completer(presetNames: { presets.names }))
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
                continue
            case .line(let line):
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.isEmpty { continue }
                editor.remember(line)
                if text.hasPrefix("/") {
                    if case .quit = handleCommand(text) { return .success }
                } else {
                    runTurn(input: line)
                }
            }
        }
    }

    enum CommandResult { case `continue`, quit }

    func handleCommand(_ line: String) -> CommandResult {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        let rest = words.count > 1 ? String(line[words[1].startIndex...]).trimmingCharacters(in: .whitespaces) : ""
        switch words.first.map(String.init) {
        case "/quit", "/exit", "/q":
            return .quit
        case "/new":
            conversation = Conversation(sessionID: UUID().uuidString.lowercased())
            context.output.write("New conversation.\n")
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
        case let other:
            context.diagnostics.write("unknown command \(other ?? line); /help lists the commands\n")
        }
        return .continue
    }

    static let help = """
        Type a message and press Enter to send it; each turn continues the conversation.
          /preset list       list presets (* marks the one in use)
          /preset use NAME   switch to a preset (your /set values stay on top)
          /preset show [NAME] show a preset file (the one in use by default)
          /preset save NAME  save the current settings as a preset in your data directory
          /preset diff A B   show how two presets differ
          /set KEY VALUE     change a setting for the following turns (/settings lists them)
          /unset KEY         do not send KEY from now on
          /reset [KEY]       drop your /set and /unset (of KEY, or all), back to the preset's values
          /settings          show every setting in effect and where it comes from
          /payload [TEXT]    show the exact JSON of the next request (with TEXT as the message)
          /stream on|off     stream answers, or ask for whole ones
          /new               start a new conversation
          /inspect [last|ID] show an exchange from the inspector (the last one by default)
          /help              show this help
          /quit              leave (Ctrl-D works too)
        Ctrl-C while an answer streams stops it and keeps what arrived; Ctrl-C at the prompt clears the line.

        """

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

    func runTurn(input: String) {
        let settings = self.settings
        let builder = PayloadBuilder()
        if let problem = builder.problems(settings: settings).first {
            context.diagnostics.write("error: \(problem)\n")
            return
        }
        var built: CreateResponseRequest
        do {
            built = try builder.build(
                settings: settings, conversation: conversation, input: .string(input), for: .send(context.environment))
        } catch {
            context.diagnostics.write("error: \(error.message)\n")
            return
        }
        for notice in ModelCapabilities.adjust(&built) { context.diagnostics.write("note: \(notice)\n") }
        let request = built
        let client = context.client
        let output = context.output
        let exchangeContext = ExchangeContext(preset: settings.preset, session: conversation.sessionID)
        let (outcome, _) = bridge.run {
            var renderer = TurnRenderer(output: output)
            let outcome = await TurnRunner(client: client).run(request, context: exchangeContext, renderer: &renderer)
            renderer.finishLine()
            return outcome
        }
        if let error = outcome.error {
            if error.code == .cancelled {
                context.diagnostics.write("[cancelled — the partial answer is kept]\n")
            } else {
                context.diagnostics.write("error: \(error)\n")
            }
            return
        }
        conversation.record(responseID: outcome.response?.id)
        if outcome.response?.status == .incomplete {
            context.diagnostics.write("[incomplete: \(outcome.response?.incompleteReason ?? "no reason given")]\n")
        } else if outcome.response?.status == .failed {
            context.diagnostics.write("error: \(outcome.response?.error?.message ?? "the response failed")\n")
        }
    }
}
