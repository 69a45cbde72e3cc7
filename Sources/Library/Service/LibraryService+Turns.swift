import Foundation

/// A question asked of the library: its passages, the input a model is sent (the passages as numbered
/// context), the footnotes for the `[n]` its answer uses, and the answer without a model.
public struct LibraryTurn: Sendable {
    public var question: String
    /// The passages, numbered from 1 as the context and the footnotes number them.
    public var hits: [SearchHit]
    /// Said when the search could not rank as asked (for example the model is not installed).
    public var notice: String?

    public init(question: String, hits: [SearchHit], notice: String? = nil) {
        self.question = question
        self.hits = hits
        self.notice = notice
    }

    /// What the model is sent: the question with its passages as numbered context; with none, the question.
    public var input: String {
        hits.isEmpty ? question : AnswerBuilder().context(question: question, passages: hits)
    }

    /// Footnotes for the `[n]` markers a model's answer uses, in the order it first uses them ("" for none).
    public func footnotes(for answer: String) -> String {
        let used = citedNumbers(in: answer)
        guard !used.isEmpty else { return "" }
        let builder = AnswerBuilder()
        return "\n" + used.map { builder.footnote($0, hits[$0 - 1]) }.joined(separator: "\n") + "\n"
    }

    /// The passages a model's answer cites with `[n]`, in the order it first cites them (its footnotes').
    public func cited(by answer: String) -> [SearchHit] {
        citedNumbers(in: answer).map { hits[$0 - 1] }
    }

    /// The numbers of the `[n]` markers in `answer` that name a passage, each once, in order of first use.
    func citedNumbers(in answer: String) -> [Int] {
        var used: [Int] = []
        var rest = Substring(answer)
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "]"), let number = Int(after[..<close]), number >= 1,
                number <= hits.count
            {
                if !used.contains(number) { used.append(number) }
                rest = after[after.index(after: close)...]
            } else {
                rest = after
            }
        }
        return used
    }

    /// The answer without a model: the passages' sentences that best match, each with its `[n]` (numbered
    /// in the order they first cite a passage; code as a fenced block under it), then the footnotes; and the
    /// passages in footnote order (for `/sources`). Untrusted text: the documents' own words.
    public var withoutModel: (text: String, sources: [SearchHit]) {
        guard !hits.isEmpty else { return ("", []) }
        let builder = AnswerBuilder()
        let sentences = builder.extract(question: question, passages: hits)
        var text = ""
        guard !sentences.isEmpty else {
            guard hits[0].semanticRank != nil, let first = builder.opening(of: hits[0]) else {
                return (
                    "None of them shares a word with the question; the closest passage is \(hits[0].location).\n",
                    [hits[0]]
                )
            }
            // Found by meaning alone: its opening sentence, cited, rather than nothing.
            text +=
                "No sentence shares a word with the question; the passage closest in meaning begins:\n"
                + builder.bullet(first, citing: 1) + "\n"
            return (text + builder.footnote(1, hits[0], quote: builder.quote(first)) + "\n", [hits[0]])
        }
        var order: [Int] = []
        for sentence in sentences where !order.contains(sentence.source) { order.append(sentence.source) }
        for sentence in sentences {
            text += builder.bullet(sentence, citing: order.firstIndex(of: sentence.source)! + 1)
        }
        text += "\n"
        for (number, source) in order.enumerated() {
            let quote = sentences.first { $0.source == source }.map(builder.quote)
            text += builder.footnote(number + 1, hits[source - 1], quote: quote) + "\n"
        }
        return (text, order.map { hits[$0 - 1] })
    }
}

extension LibraryService {
    /// The library's part of a turn about `question`: the best `library.passages` passages (`k` overrides)
    /// within `filter`, those that begin inside a code block marked so (`LibraryStore.markingCode`).
    public func turn(_ question: String, k: Int? = nil, filter: LibraryStore.SearchFilter = .init()) async throws
        -> LibraryTurn
    {
        let result = try await search(question, k: k ?? options.passages, filter: filter)
        return LibraryTurn(question: question, hits: try await store.markingCode(result.hits), notice: result.notice)
    }
}
