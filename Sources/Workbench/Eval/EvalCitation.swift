import Foundation
import Library

/// A document a library answer should cite (`cites: README.md`, `cites: {document: guide.pdf, page: 3}`).
public struct EvalCitation: Sendable, Hashable {
    /// The document as the library shows it: its file name, or the end of its path (`Docs/README.md`).
    public var document: String
    public var page: Int?

    public init(document: String, page: Int? = nil) {
        self.document = document
        self.page = page
    }

    /// `README.md`, `guide.pdf p. 3`.
    public var words: String { document + (page.map { " p. \($0)" } ?? "") }

    /// Whether `source` is this document (its whole path, or the path's last components), on this page when
    /// one is given (a passage that runs on across pages holds each of them).
    public func matches(_ source: EvalCitedSource) -> Bool {
        let wanted = document.split(separator: "/").filter { $0 != "." }
        let path = source.path.split(separator: "/")
        guard !wanted.isEmpty, path.count >= wanted.count, Array(path.suffix(wanted.count)) == wanted else {
            return false
        }
        guard let page else { return true }
        guard let first = source.page else { return false }
        return (first...max(first, source.endPage ?? first)).contains(page)
    }
}

/// A passage a library answer cites: its document's path and pages.
public struct EvalCitedSource: Sendable, Hashable {
    public var path: String
    public var page: Int?
    public var endPage: Int?

    public init(path: String, page: Int? = nil, endPage: Int? = nil) {
        self.path = path
        self.page = page
        self.endPage = endPage
    }

    public init(_ hit: SearchHit) {
        self.init(path: hit.path, page: hit.page, endPage: hit.endPage)
    }

    /// `README.md`, `guide.pdf p. 3`, as the library shows a document (its file name).
    public var words: String {
        URL(fileURLWithPath: path).lastPathComponent + (page.map { " p. \($0)" } ?? "")
    }
}

/// A library case (`library: true`) is answered as `openresponses library ask` answers: with a model, the
/// question and its passages as numbered context, the answer's `[n]` its citations; with none (no key), the
/// library's answer without a model, which cites the passages its sentences come from.
public enum EvalLibraryAnswer {
    /// What the model is sent for `turn` (the question with its passages; the question alone with none).
    public static func input(_ turn: LibraryTurn) -> String { turn.input }

    /// The answer without a model, as an observation: nothing was sent, so it cost nothing (and used no
    /// tokens: none are counted).
    public static func withoutModel(_ turn: LibraryTurn, latencyMs: Double) -> EvalObservation {
        let answer = turn.withoutModel
        return EvalObservation(
            answer: answer.text, latencyMs: latencyMs, cost: 0, citations: answer.sources.map(EvalCitedSource.init))
    }

    /// The passages a model's `answer` cites by their `[n]`.
    public static func citations(_ turn: LibraryTurn, answer: String) -> [EvalCitedSource] {
        turn.cited(by: answer).map(EvalCitedSource.init)
    }

    /// Nil when every citation of `wanted` is among `observation`'s; else what was cited instead.
    static func check(_ wanted: [EvalCitation], _ observation: EvalObservation) -> String? {
        guard let cited = observation.citations else {
            return "not a library answer (give the case library: true)"
        }
        let missing = wanted.filter { citation in !cited.contains { citation.matches($0) } }
        guard !missing.isEmpty else { return nil }
        var seen: [String] = []
        for source in cited where !seen.contains(source.words) { seen.append(source.words) }
        let names = missing.map(\.words).joined(separator: ", ")
        return seen.isEmpty
            ? "\(names) not cited; the answer cites nothing"
            : "\(names) not cited; cited: "
                + seen.joined(separator: ", ")
    }
}
