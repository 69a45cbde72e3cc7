import Foundation
import Library
import MCPClient
import ResponsesAPI
import Synchronization
import Untrusted
import Workbench

/// The options of `openresponses ask`.
public struct AskOptions: Sendable {
    var prompt: String?
    /// The bytes piped on stdin, measured before anything is sent (`PipedInput`): text is appended to the
    /// prompt as context, an image or a PDF goes beside it as a file, anything else is refused.
    public var stdin: PipedBytes?
    /// `-f PATH|URL|-`: fragments sent as context before the prompt, each distinct text once (`-` is stdin,
    /// which is then not piped input).
    public var fragments: [String] = []
    /// `-v NAME=VALUE`: values of the preset's `{{variables}}`.
    public var variables: [String] = []
    /// `--detach`: create the response in the background, print its id once the server has accepted it, exit.
    public var detach = false
    /// `--allow-large-input`: piped text over `console.max_input_tokens` is sent all the same.
    public var allowLargeInput = false
    var model: String?
    var preset: String?
    var instructions: String?
    var stream: Bool
    var printJSON: Bool
    /// `--set KEY=VALUE` assignments, applied over the preset.
    var assignments: [String]
    /// Print the request body that would be sent, and send nothing.
    var dryRun: Bool
    /// `--estimate`: count the request's input tokens and estimate their cost; create nothing.
    public var estimate = false
    /// `--render`: the answer's Markdown rendered even when stdout is not a terminal.
    public var render = false
    /// `--yes`: run function handlers and allow MCP calls without asking.
    var approveAll: Bool
    /// `--mcp NAME`: local MCP servers to turn on besides those the config file and preset turn on.
    public var mcp: [String] = []
    /// Whether a question can be asked on stdin (it is a terminal, not a pipe).
    var canAsk: Bool
    /// `--schema` or `--schema-multi`: the answer is JSON checked against it.
    public var schema: Schema?

    public struct Schema: Sendable {
        /// A JSON Schema file, or the concise form (`name, age int`).
        public var argument: String
        /// `--schema-multi`: a list of them.
        public var multiple: Bool

        public init(argument: String, multiple: Bool = false) {
            self.argument = argument
            self.multiple = multiple
        }
    }

    public init(
        prompt: String?, stdinText: String?, model: String? = nil, preset: String? = nil,
        instructions: String? = nil, stream: Bool = true, printJSON: Bool = false, assignments: [String] = [],
        dryRun: Bool = false, approveAll: Bool = false, canAsk: Bool = false
    ) {
        self.approveAll = approveAll
        self.canAsk = canAsk
        self.prompt = prompt
        self.stdin = stdinText.map { PipedBytes(Data($0.utf8)) }
        self.model = model
        self.preset = preset
        self.instructions = instructions
        self.stream = stream
        self.printJSON = printJSON
        self.assignments = assignments
        self.dryRun = dryRun
    }

}

/// `openresponses ask`: one request, the answer on stdout as it arrives, a documented exit status.
public struct AskRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    public func run(_ options: AskOptions) async -> ExitStatus {
        var schema: SchemaFormat?
        if let request = options.schema {
            do {
                schema = try SchemaFormat.load(request.argument, multiple: request.multiple)
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
            for note in schema?.notes ?? [] { context.diagnostics.write("note: \(note)\n") }
        }
        let stack: SettingsStack
        do {
            var sessionOptions = SessionOptions(
                model: options.model, preset: options.preset, instructions: options.instructions,
                stream: options.stream ? nil : false, assignments: options.assignments, variables: options.variables)
            sessionOptions.textFormat = schema?.format
            stack = try sessionOptions.stack(environment: context.environment)
        } catch {
            context.diagnostics.write(error.message.linesPrefixed("error: "))
            return .usage
        }
        let fragments: FragmentBatch
        do {
            fragments = try await readFragments(options)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        let input: JSONValue
        do {
            guard let given = try self.input(options, settings: stack.effective, fragments: fragments) else {
                context.diagnostics.write(
                    "error: ask needs a prompt: give it as arguments (openresponses ask \"...\") or pipe it on stdin\n")
                return .usage
            }
            input = given
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        if !options.dryRun, !options.estimate { context.keep(fragments) }
        // No key for OpenAI's API (and no other server): the user's documents answer, as in the console.
        if !options.dryRun, !options.estimate, !options.detach, !options.printJSON, case .string(let question) = input,
            context.configuration.apiKey == nil,
            context.configuration.isOpenAI
        {
            do {
                try context.configuration.validate()
            } catch {
                return await answerWithoutModel(question, settings: stack.effective, problem: error)
            }
        }
        var session = ChatSession(client: context.client, environment: context.environment, stack: stack)
        let toolbox: MCPToolbox?
        do {
            toolbox = try await MCPToolbox.forSession(
                environment: context.environment, preset: stack.preset, enabling: options.mcp)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        session.toolSource = toolbox
        if options.dryRun {
            do {
                let composed = try session.preview(input)
                for note in composed.notes { context.diagnostics.write("note: \(note)\n") }
                context.output.write(composed.request.json.prettyPrinted() + "\n")
                return .success
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
        }
        if options.estimate { return await estimate(session.preview, input: input, preset: session.settings.preset) }
        if options.detach {
            await toolbox?.shutdown()
            return await detach(&session, input: input, printJSON: options.printJSON)
        }
        let settings = session.settings
        // With --json the response object is printed at the end, and with --schema the answer's JSON, checked.
        let printsAtEnd = options.printJSON || schema != nil
        let sink: any OutputSink = printsAtEnd ? DiscardingOutput() : context.output
        // On a terminal: reasoning, the tool timeline, citations and usage too; to a pipe: the exact text.
        let onTerminal = !printsAtEnd && (context.output as? FileDescriptorOutput)?.isTerminal == true
        var renderOptions =
            onTerminal ? RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings) : .plain
        if options.render, !printsAtEnd {
            renderOptions = RenderOptions.rendered(fd: 1, environment: context.environment, settings: settings)
            if !onTerminal { renderOptions.showExtras = false }
        }
        renderOptions.keepsText = schema != nil
        var renderer = TurnRenderer(output: sink, options: renderOptions)
        // stdout is the answer alone: tool activity goes to stderr with the notes.
        let delegate = ConsoleSessionDelegate(
            output: context.diagnostics, diagnostics: context.diagnostics, approval: approval(options))
        // The answer is shown from its deltas and kept nowhere: the final events' repeats of it are not
        // decoded again (with --json the whole response is printed, so they are).
        if !printsAtEnd { session.repeatedText = .omitted }
        let outcome = await session.send(input, renderer: &renderer, delegate: delegate)
        await toolbox?.shutdown()
        await context.keep(outcome.toolCalls, session: session.conversation.sessionID)
        if options.printJSON, let response = outcome.response {
            context.output.write(response.json.prettyPrinted() + "\n")
        }
        if let line = outcome.report(.script) { context.diagnostics.write(line + "\n") }
        if let job = session.detachedJob(outcome) {
            context.diagnostics.write(
                "detached from \(job): it goes on on the server (openresponses attach \(job) follows it, openresponses cancel \(job) cancels it)\n"
            )
        }
        if let schema { return finish(outcome, checkedAgainst: schema, printing: !options.printJSON) }
        return outcome.exitStatus
    }

    /// `--estimate`: the request `ask` would send, counted by `POST /responses/input_tokens` only.
    private func estimate(
        _ preview: (JSONValue) throws(SettingError) -> ComposedRequest, input: JSONValue, preset: String?
    ) async -> ExitStatus {
        let composed: ComposedRequest
        do {
            composed = try preview(input)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        for note in composed.notes { context.diagnostics.write("note: \(note)\n") }
        do {
            let labels = ExchangeContext(labels: ["preset": preset].compactMapValues { $0 })
            context.output.write(
                try await CostEstimate.count(composed.request, client: context.client, context: labels).line)
            return .success
        } catch {
            context.diagnostics.write("error: cannot count the input tokens: \(error.message)\n")
            return error.code == .cancelled ? .interrupted : .apiError
        }
    }

    /// `--yes` approves every tool run; otherwise a question on the terminal, or, when stdin is not one, a
    /// refusal that says how to approve.
    private func approval(_ options: AskOptions) -> ConsoleSessionDelegate.Approval {
        if options.approveAll { return .always }
        guard options.canAsk else {
            return .refuse(
                "error: a tool needs approval to run, and stdin is not a terminal to ask on: "
                    + "pass --yes to approve function handlers and MCP calls without asking")
        }
        let diagnostics = context.diagnostics
        return .ask { question in
            diagnostics.write(question)
            let answer = readLine(strippingNewline: true) ?? ""
            return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        }
    }
}

/// Bytes read once and handed over once: when the turn takes them, no copy stays behind with the reader
/// (a piped document can be tens of megabytes, and is decoded into the turn's text).
public final class PipedBytes: Sendable {
    private let bytes: Mutex<Data?>

    public init(_ bytes: Data) {
        self.bytes = Mutex(bytes)
    }

    /// The bytes, the first time; nil after.
    func take() -> Data? {
        bytes.withLock { bytes in
            defer { bytes = nil }
            return bytes
        }
    }
}

/// Drops everything (the text of `ask --json`, which prints the response object instead).
struct DiscardingOutput: OutputSink {
    func write(_ text: String) {}
    func write(_ text: TerminalText) {}
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Error {
    /// The error's description with `prefix` before each of its lines.
    func linesPrefixed(_ prefix: String) -> String {
        "\(self)".linesPrefixed(prefix)
    }
}

extension String {
    /// The text with `prefix` before each of its lines.
    func linesPrefixed(_ prefix: String) -> String {
        split(separator: "\n").map { prefix + $0 + "\n" }.joined()
    }
}
