import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// Answers from the library: with a model, the best passages go into the request as numbered context
/// and the answer's `[n]` become footnotes; with none (no key for OpenAI's API, the server unreachable,
/// or asked for), an extractive answer: the passages' sentences that best match, each with its footnote.
extension LibraryRunner {
    /// The passages for `question`, the numbering footnotes use.
    /// `client` embeds the question when the library's vectors come from a server (nil: one is made).
    func passages(
        _ question: String, k: Int, filter: LibraryStore.SearchFilter, options: LibraryOptions = LibraryOptions(),
        client: ResponsesClient? = nil
    ) async throws -> [SearchHit] {
        let result = try await ranked(
            question, k: k, filter: filter, options: options, store: try openStore(), client: client)
        if let notice = result.notice { diagnostics.write("note: \(notice)\n") }
        return result.hits
    }

    /// `library ask`: `context` is nil (or `offline` true) for an answer without a model.
    func ask(
        _ question: String, k: Int = 5, filter: LibraryStore.SearchFilter = .init(), offline: Bool,
        context: ConsoleContext?,
        stack: SettingsStack? = nil
    ) async -> ExitStatus {
        let hits: [SearchHit]
        do {
            hits = try await passages(question, k: k, filter: filter)
        } catch let error as ConsoleError {
            diagnostics.write("error: \(error.message)\n")
            return error.exitStatus
        } catch {
            diagnostics.write("error: \(error)\n")
            return .apiError
        }
        guard !hits.isEmpty else {
            output.write(
                "Nothing in the library matches that question (library list shows what it holds; library add PATH adds more).\n"
            )
            return .success
        }
        guard !offline, let context, (try? context.configuration.validate()) != nil else {
            output.write(Self.extractiveAnswer(question, hits: hits, color: false))
            return .success
        }
        var session = ChatSession(
            client: context.client, environment: environment,
            stack: stack ?? SettingsStack(defaults: SettingsStack.builtInDefaults(environment: environment)))
        var renderer = TurnRenderer(output: output)
        let delegate = ConsoleSessionDelegate(
            output: diagnostics, diagnostics: diagnostics, approval: .refuse("error: library ask does not run tools"))
        let outcome = await session.send(
            .string(AnswerBuilder().context(question: question, passages: hits)), renderer: &renderer,
            delegate: delegate)
        if let error = outcome.error, error.code == .network || error.code == .timeout {
            diagnostics.write(
                "note: \(context.configuration.baseURL) did not answer (\(error.message)); answering without a model\n")
            output.write(Self.extractiveAnswer(question, hits: hits, color: false))
            return .success
        }
        if let line = outcome.report(.script) { diagnostics.write(line + "\n") }
        output.write(Self.footnotes(for: outcome.text, hits: hits))
        return outcome.exitStatus
    }

    /// The answer without a model: a one-line notice, the best sentences each with its `[n]` (numbered in
    /// the order they first cite a passage), the footnotes. Also the passages in footnote order, for
    /// `/sources`.
    static func extractiveAnswer(_ question: String, hits: [SearchHit], color: Bool) -> String {
        extractiveNotice(color: color).text + extractive(question, hits: hits).text
    }

    /// The answer's first line, dimmed on a colour terminal.
    static func extractiveNotice(color: Bool) -> TerminalText {
        let notice: TerminalText = "No model was used: these are the sentences of your documents that best match."
        return color ? "\u{1B}[2m\(notice)\u{1B}[0m\n" : "\(notice)\n"
    }

    /// The answer after its notice: the documents' sentences (untrusted text, written as a `String`).
    static func extractive(_ question: String, hits: [SearchHit]) -> (text: String, sources: [SearchHit]) {
        let builder = AnswerBuilder()
        let sentences = builder.extract(question: question, passages: hits)
        var text = ""
        guard !sentences.isEmpty else {
            guard hits[0].semanticRank != nil, let first = AnswerBuilder.sentences(hits[0].text).first else {
                return (
                    text
                        + "None of them shares a word with the question; the closest passage is \(hits[0].location).\n",
                    [hits[0]]
                )
            }
            // Found by meaning alone: its opening sentence, cited, rather than nothing.
            text +=
                "No sentence shares a word with the question; the passage closest in meaning begins:\n• \(first) [1]\n\n"
            return (text + builder.footnote(1, hits[0], quote: first) + "\n", [hits[0]])
        }
        var order: [Int] = []
        for sentence in sentences where !order.contains(sentence.source) { order.append(sentence.source) }
        for sentence in sentences { text += "• \(sentence.text) [\(order.firstIndex(of: sentence.source)! + 1)]\n" }
        text += "\n"
        for (number, source) in order.enumerated() {
            let quote = sentences.first { $0.source == source }?.text
            text += builder.footnote(number + 1, hits[source - 1], quote: quote) + "\n"
        }
        return (text, order.map { hits[$0 - 1] })
    }

    /// Footnotes for the `[n]` markers a model's answer uses, in order.
    static func footnotes(for answer: String, hits: [SearchHit]) -> String {
        var used: [Int] = []
        var rest = Substring(answer)
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "]"), let number = Int(after[..<close]),
                (1...hits.count).contains(number)
            {
                if !used.contains(number) { used.append(number) }
                rest = after[after.index(after: close)...]
            } else {
                rest = after
            }
        }
        guard !used.isEmpty else { return "" }
        let builder = AnswerBuilder()
        return "\n" + used.map { builder.footnote($0, hits[$0 - 1]) }.joined(separator: "\n") + "\n"
    }
}
