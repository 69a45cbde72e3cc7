import Foundation
import Inspector
import Library
import MCPClient
import ResponsesAPI
import Untrusted
import Workbench

/// The interactive console: plain lines are user turns (chained as the conversation mode says); lines
/// starting with `/` are commands. A turn that ends in function calls or MCP approval requests goes on
/// by itself (handlers run, approvals asked) until the model answers.
public final class REPL {
    /// The server's context: the one the console opened with, or the provider `/provider` switched to.
    var context: ConsoleContext
    /// The context this console was opened with (its opener shuts it down).
    let openedContext: ConsoleContext
    /// The provider in use (`--provider`, `/provider`).
    var providerName: String
    /// Tokens and estimated cost of this session's requests, by model (`/usage`).
    var spending = SessionSpending()
    /// The conversation, its settings and the tool loop: everything of a turn but the terminal.
    var session: ChatSession
    var stack: SettingsStack {
        get { session.stack }
        set { session.stack = newValue }
    }
    var settings: TurnSettings { session.settings }
    var conversation: Conversation {
        get { session.conversation }
        set { session.conversation = newValue }
    }
    let presets: PresetLibrary
    let editor: LineEditor
    let interrupt: InterruptPipe
    let bridge: MainThreadBridge
    /// Files for the next message (`/attach`).
    var attachments: [Attachment] = []
    /// Documents' text for the next message (`/fragment`), each distinct text once.
    var pendingFragments = FragmentBatch()
    /// A Ctrl-C at an empty prompt was just seen; another one leaves.
    var armedToQuit = false
    /// Vector store ids for completion.
    let storeIDs: StoreIDCache
    /// The command line's subcommands `/files` and `/stores` run, from the executable.
    let subcommands: SubcommandTable
    /// The local library: whether turns use it, the document they are scoped to, the last answer's passages.
    var library: LibraryState
    /// How the last turn ended (`/logprobs` reads its response).
    var lastOutcome: TurnOutcome?
    /// The background response the last Ctrl-C detached from (`/cancel` cancels it).
    var detachedJob: String?
    /// The last turn was just detached: a Ctrl-C at the next prompt cancels its job.
    var justDetached = false
    /// The detached background responses, watched until they end (announced at the next prompt).
    let jobWatcher = JobWatcher()
    /// The local MCP servers declared for the preset in use (`REPL+MCP`), and their names for Tab.
    var mcp: MCPToolbox?
    let mcpServerNames = MCPServerNames()
    /// Said once when the session starts: why it starts stateless (`ChainKeeping`), if it does.
    var chainNotice: String?

    static let prompt: TerminalText = "> "
    static let continuationPrompt: TerminalText = "… "
    public init(
        context: ConsoleContext, settings: SettingsStack, interrupt: InterruptPipe, subcommands: SubcommandTable
    ) {
        self.context = context
        self.openedContext = context
        self.providerName = context.providerName
        self.session = ChatSession(client: context.client, environment: context.environment, stack: settings)
        let chain = ChainKeeping.startingMode(
            provider: context.providerName, baseURL: context.configuration.baseURL, environment: context.environment)
        self.session.conversation.mode = chain.mode
        self.chainNotice = chain.notice
        self.presets = PresetLibrary(environment: context.environment)
        self.interrupt = interrupt
        self.bridge = MainThreadBridge(interrupt: interrupt)
        self.editor = LineEditor(historyPath: context.environment.historyPath, interrupt: interrupt)
        self.storeIDs = StoreIDCache(client: context.client)
        self.subcommands = subcommands
        self.library = LibraryState(hasProvider: (try? context.configuration.validate()) != nil)
    }

    var secrets: [String] { [context.configuration.apiKey].compactMap { $0 } }

    /// Runs until /quit, Ctrl-D, or Ctrl-C twice at an empty prompt; the terminal is restored on the way out.
    public func run() -> ExitStatus {
        defer { editor.restoreTerminal() }
        defer { stopMCP() }
        defer {
            // A context /provider opened is this console's to close; the first one is its opener's.
            if context !== openedContext {
                let context = self.context
                _ = bridge.run { await context.shutdown() }
            }
        }
        let presets = self.presets
        let stores = storeIDs
        let servers = mcpServerNames
        let models = Completer.models(aliases: stack.aliases, prices: .shipped)
        editor.complete(
            with: Completer(
                presetNames: { presets.names }, storeIDs: { stores.ids() }, subcommands: subcommands,
                mcpServers: { servers.list }, models: { models }))
        if editor.isInteractive {
            let preset = stack.preset.map { " · preset \($0.name)" } ?? ""
            context.output.write(
                library.hasProvider
                    ? "openresponses · \(stack.aliases.described(stack.namedModel))\(preset) · \(context.configuration.baseURL)\n"
                        + "Type a message; /help for commands, Ctrl-D to quit.\n"
                    : "openresponses · offline: no OPENAI_API_KEY for \(context.configuration.baseURL), so questions are answered "
                        + "from your library, without a model (openresponses library add PATH adds documents; export "
                        + "OPENAI_API_KEY, or point OPENAI_BASE_URL at a local server, for a model's answers).\n"
                        + "Type a message; /help for commands, Ctrl-D to quit.\n")
        }
        if let notice = chainNotice { context.diagnostics.write(notice + "\n") }
        loadMCP()
        while true {
            for notice in jobWatcher.takeNotices() { context.diagnostics.write(notice + "\n") }
            switch editor.readLine(prompt: Self.prompt) {
            case .endOfInput:
                if editor.isInteractive { context.output.write("\n") }
                return .success
            case .interrupted:
                // A second Ctrl-C right after one detached a background turn cancels it on the server.
                if let job = detachedJob, justDetached {
                    justDetached = false
                    cancelJobCommand([job])
                    continue
                }
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
                justDetached = false
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

    /// One user turn: the message (with any attachments), then as many tool rounds as the model needs.
    func runTurn(text: String) {
        library.checkable = nil
        if library.answersOffline {
            answerFromLibrary(text)
            return
        }
        if library.mode == .on {
            libraryTurn(text)
            return
        }
        guard let uploaded = uploadLargeAttachments() else { return }
        let input: JSONValue
        do {
            input = try message(text, uploaded: uploaded)
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
            return
        }
        attachments.removeAll()
        pendingFragments = FragmentBatch()
        send(input)
    }

    /// Uploads the attachments too big to go inline; their file ids by path, or nil (nothing is sent,
    /// the attachments stay) when an upload fails.
    func uploadLargeAttachments() -> [URL: String]? {
        let limitKB = settings.console["inline_attachments_kb"]?.intValue ?? Attachment.defaultInlineLimit / 1024
        let large = attachments.filter { !$0.asText && $0.size > limitKB * 1024 }
        guard !large.isEmpty else { return [:] }
        let client = context.client
        let diagnostics = context.diagnostics
        let progressEnabled = editor.isInteractive
        let (result, _) = bridge.run { () async -> (ids: [URL: String], error: String?) in
            var ids: [URL: String] = [:]
            for attachment in large {
                let progress = ProgressLine(
                    output: diagnostics, enabled: progressEnabled, label: attachment.url.lastPathComponent,
                    total: attachment.size)
                do {
                    let file = try await client.uploadFile(
                        attachment.url, purpose: attachment.uploadPurpose, mediaType: attachment.mediaType,
                        progress: { progress.update($0) })
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

    /// Runs a turn of the session (`input`, or with nil the last one again, for `/retry`) while the main
    /// thread waits for Ctrl-C and answers the session's questions at the prompt; then says how it ended.
    @discardableResult
    func send(_ input: JSONValue?) -> TurnOutcome? {
        let output = context.output
        let options = RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings)
        let delegate = ConsoleSessionDelegate(
            output: output, diagnostics: context.diagnostics, approval: .ask(askAtPrompt()))
        let session = self.session
        let spending = self.spending
        let context = self.context
        let (result, _) = bridge.run {
            () async -> (session: ChatSession, outcome: TurnOutcome?, spending: SessionSpending?) in
            var session = session
            var renderer = TurnRenderer(output: output, options: options)
            renderer.spending = spending
            let outcome: TurnOutcome? =
                if let input {
                    await session.send(input, renderer: &renderer, delegate: delegate)
                } else {
                    await session.retry(renderer: &renderer, delegate: delegate)
                }
            await context.keep(outcome?.toolCalls ?? [], session: session.conversation.sessionID)
            return (session, outcome, renderer.spending)
        }
        self.session = result.session
        if let spent = result.spending { self.spending = spent }
        guard let outcome = result.outcome else { return nil }
        lastOutcome = outcome
        if let line = outcome.report(.console) { context.diagnostics.write(line + "\n") }
        // Ctrl-C leaves a background response running: detached, not cancelled (/cancel cancels it).
        if let job = session.detachedJob(outcome) {
            detachedJob = job
            justDetached = true
            jobWatcher.watch(job, client: context.client)
            context.diagnostics.write(
                "[detached from \(job): it goes on on the server · /attach-job \(job) follows it · Ctrl-C again or /cancel cancels it]\n"
            )
        }
        return outcome
    }

    /// A y/N question at the prompt, asked on the main thread from a running turn.
    func askAtPrompt() -> @Sendable (TerminalText) async -> Bool {
        let editor = UncheckedSendable(self.editor)
        let bridge = self.bridge
        return { question in
            await bridge.onMainThread {
                switch editor.value.readLine(prompt: question) {
                case .line(let answer): ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
                default: false
                }
            }
        }
    }
}
