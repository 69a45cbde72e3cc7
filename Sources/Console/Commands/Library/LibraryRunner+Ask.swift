import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

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
        _ question: String, filter: LibraryStore.SearchFilter, offline: Bool, options: LibraryOptions
    ) async -> ExitStatus {
        let context = offline ? nil : try? ConsoleContext(environment: environment)
        let status = await ask(question, filter: filter, offline: offline, context: context, options: options)
        await context?.shutdown()
        return status
    }

    /// `library ask`: `context` is nil (or `offline` true) for an answer without a model.
    func ask(
        _ question: String, filter: LibraryStore.SearchFilter = .init(), offline: Bool, context: ConsoleContext?,
        options: LibraryOptions, stack: SettingsStack? = nil
    ) async -> ExitStatus {
        let turn: LibraryTurn
        do {
            turn = try await augmenter(options, filter: filter, client: context?.client).turn(question)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        if let notice = turn.notice { diagnostics.write("note: \(notice)\n") }
        guard !turn.hits.isEmpty else {
            output.write(
                "Nothing in the library matches that question (library list shows what it holds; library add PATH adds more).\n"
            )
            return .success
        }
        guard !offline, let context, (try? context.configuration.validate()) != nil else {
            output.write(Self.answerWithoutModel(turn, color: false))
            return .success
        }
        var session = ChatSession(
            client: context.client, environment: environment,
            stack: stack ?? SettingsStack(defaults: SettingsStack.builtInDefaults(environment: environment)))
        var augmentation = LibraryAugmenter.augmentation(turn)
        augmentation.notes = []
        session.augmenter = PreparedAugmenter(augmentation)
        var renderer = TurnRenderer(output: output)
        let delegate = ConsoleSessionDelegate(
            output: diagnostics, diagnostics: diagnostics, approval: .refuse("error: library ask does not run tools"))
        let outcome = await session.send(.string(question), renderer: &renderer, delegate: delegate)
        if let error = outcome.error, error.code == .network || error.code == .timeout {
            diagnostics.write(
                "note: \(context.configuration.baseURL) did not answer (\(error.message)); answering without a model\n")
            output.write(Self.answerWithoutModel(turn, color: false))
            return .success
        }
        if let line = outcome.report(.script) { diagnostics.write(line + "\n") }
        output.write(outcome.footnotes)
        return outcome.exitStatus
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
