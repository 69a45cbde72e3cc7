import Foundation
import ResponsesAPI
import Workbench

/// The options of `openresponses ask`.
public struct AskOptions: Sendable {
    public var prompt: String?
    /// Text piped on stdin; appended to the prompt as context.
    public var stdinText: String?
    public var model: String?
    public var preset: String?
    public var instructions: String?
    public var stream: Bool
    public var printJSON: Bool
    /// `--set KEY=VALUE` assignments, applied over the preset.
    public var assignments: [String]
    /// Print the request body that would be sent, and send nothing.
    public var dryRun: Bool

    public init(
        prompt: String?, stdinText: String?, model: String? = nil, preset: String? = nil,
        instructions: String? = nil, stream: Bool = true, printJSON: Bool = false, assignments: [String] = [],
        dryRun: Bool = false
    ) {
        self.prompt = prompt
        self.stdinText = stdinText
        self.model = model
        self.preset = preset
        self.instructions = instructions
        self.stream = stream
        self.printJSON = printJSON
        self.assignments = assignments
        self.dryRun = dryRun
    }

    /// The user's input: the prompt, then the piped text as context.
    public var input: String? {
        let prompt = prompt?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
        let piped = stdinText?.trimmingCharacters(in: .newlines).nonEmpty
        switch (prompt, piped) {
        case let (prompt?, piped?): return "\(prompt)\n\n\(piped)"
        case let (prompt?, nil): return prompt
        case let (nil, piped?): return piped
        case (nil, nil): return nil
        }
    }
}

/// `openresponses ask`: one request, the answer on stdout as it arrives, a documented exit status.
public struct AskRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    public func run(_ options: AskOptions) async -> ExitStatus {
        guard let input = options.input else {
            context.diagnostics.write(
                "error: ask needs a prompt: give it as arguments (openresponses ask \"...\") or pipe it on stdin\n")
            return .usage
        }
        let stack: SettingsStack
        do {
            let flags = try SettingsLayer.commandLine(
                model: options.model, instructions: options.instructions, stream: options.stream ? nil : false,
                assignments: options.assignments)
            stack = try SettingsStack.load(environment: context.environment, preset: options.preset, flags: flags)
        } catch let error as SettingError {
            context.diagnostics.write("error: \(error.message)\n")
            return .usage
        } catch {
            context.diagnostics.write(error.linesPrefixed("error: "))
            return .usage
        }
        let settings = stack.effective
        let builder = PayloadBuilder()
        var request: CreateResponseRequest
        do {
            request = try builder.build(
                settings: settings, conversation: nil, input: .string(input),
                for: options.dryRun ? .display : .send(context.environment))
        } catch {
            context.diagnostics.write("error: \(error.message)\n")
            return .usage
        }
        for notice in ModelCapabilities.adjust(&request) { context.diagnostics.write("note: \(notice)\n") }
        let problems = builder.problems(settings: settings)
        if options.dryRun {
            for problem in problems { context.diagnostics.write("note: \(problem)\n") }
            context.output.write(request.json.prettyPrinted() + "\n")
            return .success
        }
        if !problems.isEmpty {
            for problem in problems { context.diagnostics.write("error: \(problem)\n") }
            return .usage
        }

        let sink: any OutputSink = options.printJSON ? DiscardingOutput() : context.output
        // On a terminal: reasoning, the tool timeline, citations and usage too; to a pipe: the exact text.
        let onTerminal = !options.printJSON && (context.output as? FileDescriptorOutput)?.isTerminal == true
        var renderOptions = onTerminal ? RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings) : .plain
        renderOptions.keepsText = false
        var renderer = TurnRenderer(output: sink, options: renderOptions)
        let outcome = await TurnRunner(client: context.client).run(
            request, context: .init(preset: settings.preset), renderer: &renderer)
        renderer.finish(response: outcome.error == nil ? outcome.response : nil)

        if options.printJSON, let response = outcome.response {
            context.output.write(response.json.prettyPrinted() + "\n")
        }
        report(outcome)
        return outcome.exitStatus
    }

    private func report(_ outcome: TurnOutcome) {
        if let error = outcome.error {
            switch error.code {
            case .cancelled: context.diagnostics.write("interrupted\n")
            default: context.diagnostics.write("error: \(error)\n")
            }
            return
        }
        guard let response = outcome.response else { return }
        switch response.status {
        case .incomplete?:
            context.diagnostics.write("incomplete: \(response.incompleteReason ?? "no reason given")\n")
        case .failed?:
            let message = response.error?.message ?? "the response failed"
            context.diagnostics.write("error: \(response.error?.code.map { "\($0): " } ?? "")\(message)\n")
        default:
            break
        }
    }
}

/// Drops everything (the text of `ask --json`, which prints the response object instead).
struct DiscardingOutput: OutputSink {
    func write(_ text: String) {}
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Error {
    /// The error's description with `prefix` before each of its lines.
    func linesPrefixed(_ prefix: String) -> String {
        "\(self)".split(separator: "\n").map { prefix + $0 + "\n" }.joined()
    }
}
