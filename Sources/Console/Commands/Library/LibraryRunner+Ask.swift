import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// How `library ask` prints: `verify` checks each cited sentence against its passages (`--verify`), `verbose`
/// lists the supported ones too, `json` prints one JSON object instead of text.
public struct AskPrinting: Sendable {
    public var verify = false
    public var verbose = false
    public var json = false

    public init(verify: Bool = false, verbose: Bool = false, json: Bool = false) {
        self.verify = verify
        self.verbose = verbose
        self.json = json
    }
}

/// `library ask`: with a model, the best passages go into the request as numbered context (a library turn,
/// `LibraryAugmenter`) and the answer's `[n]` become footnotes; with none (no key for OpenAI's API, the
/// server unreachable, or asked for), the answer without a model: the passages' sentences that best match,
/// each with its footnote (`LibraryTurn.withoutModel`).
extension LibraryRunner {
    /// The library's part of a turn: its passages (`k`, else `library.passages`) within `filter`, and a note
    /// when the search could not rank as asked. `client` embeds the question when the library's vectors come
    /// from a server (nil: one is made).
    func augmenter(
        _ options: LibraryOptions, k: Int? = nil, filter: LibraryStore.SearchFilter, client: ResponsesClient?
    ) -> LibraryAugmenter {
        LibraryAugmenter(filter: filter, k: k) { try self.service(options, client: client) }
    }

    /// `library ask` on the command line: a context of its own for the runner's environment (none `offline`),
    /// shut down after.
    public func ask(
        _ question: String, filter: LibraryStore.SearchFilter, offline: Bool, options: LibraryOptions,
        printing: AskPrinting = .init()
    ) async -> ExitStatus {
        let context = offline ? nil : try? ConsoleContext(environment: environment)
        let status = await ask(
            question, filter: filter, offline: offline, context: context, options: options, printing: printing)
        await context?.shutdown()
        return status
    }

    /// `library ask`: `context` is nil (or `offline` true) for an answer without a model.
    func ask(
        _ question: String, filter: LibraryStore.SearchFilter = .init(), offline: Bool, context: ConsoleContext?,
        options: LibraryOptions, stack: SettingsStack? = nil, printing: AskPrinting = .init()
    ) async -> ExitStatus {
        let turn: LibraryTurn
        do {
            turn = try await augmenter(options, filter: filter, client: context?.client).turn(question)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        if let notice = turn.notice { diagnostics.write("note: \(notice)\n") }
        guard !turn.hits.isEmpty else {
            let nothing =
                "Nothing in the library matches that question (library list shows what it holds; library add PATH adds more).\n"
            if printing.json { diagnostics.write(nothing) } else { output.write(nothing) }
            await printed(
                question, answer: "", model: false, sources: [], checked: nil, options: options, printing: printing)
            return .success
        }
        guard !offline, let context, (try? context.configuration.validate()) != nil else {
            return await answerWithoutModel(turn, options: options, printing: printing)
        }
        var session = ChatSession(
            client: context.client, environment: environment,
            stack: stack ?? SettingsStack(defaults: SettingsStack.builtInDefaults(environment: environment)))
        var augmentation = LibraryAugmenter.augmentation(turn)
        augmentation.notes = []
        session.augmenter = PreparedAugmenter(augmentation)
        var renderer = TurnRenderer(output: printing.json ? DiscardingOutput() : output)
        let delegate = ConsoleSessionDelegate(
            output: diagnostics, diagnostics: diagnostics, approval: .refuse("error: library ask does not run tools"))
        let outcome = await session.send(.string(question), renderer: &renderer, delegate: delegate)
        if let error = outcome.error, error.code == .network || error.code == .timeout {
            diagnostics.write(
                "note: \(context.configuration.baseURL) did not answer (\(error.message)); answering without a model\n")
            return await answerWithoutModel(turn, options: options, printing: printing)
        }
        if let line = outcome.report(.script) { diagnostics.write(line + "\n") }
        if !printing.json { output.write(outcome.footnotes) }
        // A turn that failed has no whole answer to check.
        await printed(
            question, answer: outcome.text, model: true, sources: turn.hits,
            checked: outcome.error == nil ? nil : "the answer did not finish", options: options, printing: printing)
        return outcome.exitStatus
    }

    /// The answer without a model, printed as `printing` asks; checking it passes (it quotes the passages).
    func answerWithoutModel(_ turn: LibraryTurn, options: LibraryOptions, printing: AskPrinting) async -> ExitStatus {
        let answer = turn.withoutModel
        if !printing.json { output.write(Self.answerWithoutModel(turn, color: false)) }
        // "None of them shares a word with the question" cites nothing: there is nothing to check.
        await printed(
            turn.question, answer: answer.text, model: false, sources: answer.sources,
            checked: answer.text.contains("[1]") ? nil : "the answer cites no passage", options: options,
            printing: printing)
        return .success
    }

    /// What follows an answer shown: with `verify`, the check of its citations against `sources` (the
    /// block, or the `verification` object), unless `unchecked` says why there is none; with `json`, the answer
    /// as one JSON object.
    func printed(
        _ question: String, answer: String, model: Bool, sources: [SearchHit], checked unchecked: String?,
        options: LibraryOptions, printing: AskPrinting
    ) async {
        var report: CitationReport?
        let why = sources.isEmpty ? "nothing in the library matched" : unchecked
        if printing.verify, why == nil {
            report = await verification(answer, sources: sources.map(\.text), options: options)
        }
        guard printing.json else {
            if let report {
                output.write(Self.verificationBlock(report, verbose: printing.verbose))
            } else if printing.verify, let why {
                output.write("\nCitations not checked: \(why).\n")
            }
            return
        }
        var object: JSONObject = [
            "question": .string(question), "answer": .string(answer), "model": .bool(model),
            "sources": .array(
                sources.enumerated().map { number, hit in
                    ["number": .integer(number + 1), "location": .string(hit.location), "text": .string(hit.text)]
                }),
        ]
        if let report { object["verification"] = Self.verificationJSON(report) }
        output.write(JSONValue.object(object).prettyPrinted() + "\n")
    }

    /// The answer without a model: a one-line notice, then the documents' sentences with their footnotes.
    static func answerWithoutModel(_ turn: LibraryTurn, color: Bool) -> String {
        extractiveNotice(color: color).text + turn.withoutModel.text
    }

    /// The answer's first line, dimmed on a colour terminal.
    static func extractiveNotice(color: Bool) -> TerminalText {
        let notice: TerminalText = "No model was used: these are the sentences of your documents that best match."
        return color ? "\u{1B}[2m\(notice)\u{1B}[0m\n" : "\(notice)\n"
    }
}
