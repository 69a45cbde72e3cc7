import Foundation
import Library
import ResponsesAPI
import Untrusted

/// Checking an answer's citations: `library ask --verify` and `/verify` ask the library's `CitationVerifier`
/// and show its report. The sentences are the model's (or the documents'): written as `String`, so a terminal
/// gets them cleaned of control characters.
extension LibraryRunner {
    /// `answer` checked against `sources` (the passages its `[n]` point to); nil when the library cannot be
    /// opened or the check fails (said).
    func verification(_ answer: String, sources: [String], options: LibraryOptions) async -> CitationReport? {
        let service: LibraryService
        do { service = try self.service(options) } catch {
            ErrorReport.write(error, to: diagnostics)
            return nil
        }
        let verifier = service.citationVerifier()
        if verifier.embedder == nil {
            diagnostics.write("note: \(service.modelMissing); sentences are checked by their words alone\n")
        }
        var report: CitationReport?
        do { report = try await verifier.verify(answer: answer, passages: sources) } catch {
            ErrorReport.write(error, to: diagnostics)
        }
        await service.finish()
        return report
    }

    /// The block under an answer: how many sentences were flagged, each flagged one with its verdict and
    /// score, the supported ones counted (`verbose`: listed, with the passage's words that support them).
    static func verificationBlock(_ report: CitationReport, verbose: Bool) -> String {
        let measure = report.usedEmbedding ? "meaning and words" : "words alone"
        guard !report.sentences.isEmpty else {
            return "\nCitations checked: the answer makes no claim to check.\n"
        }
        var text =
            "\nCitations checked (\(measure), threshold \(Self.figure(report.threshold))): "
            + "\(report.flagged.count) of \(report.sentences.count) \(report.sentences.count == 1 ? "sentence" : "sentences") flagged.\n"
        for sentence in report.sentences where verbose || sentence.verdict != .supported {
            text += "  " + line(sentence) + "\n"
            if verbose, let source = sentence.bestSource, let snippet = sentence.snippet {
                let clipped = snippet.count > 160 ? snippet.prefix(159) + "…" : Substring(snippet)
                text += "      closest in [\(source)]: “\(clipped)”\n"
            }
        }
        if !verbose, report.supportedCount > 0 {
            text += "  \(report.supportedCount) supported (--verbose lists them).\n"
        }
        if report.skipped > 0 { text += "  \(report.skipped) more sentences not checked (at most 64).\n" }
        if report.truncated { text += "  The answer was cut to its first 256 KB for the check.\n" }
        return text
    }

    /// One sentence's line: verdict, score, citations, the sentence.
    static func line(_ sentence: CitationReport.Sentence) -> String {
        let cites = sentence.citations.isEmpty ? "" : " " + sentence.citations.map { "[\($0)]" }.joined()
        let score = sentence.score.map { " score \(figure($0))" } ?? ""
        var words = "\(sentence.verdict.rawValue)\(cites)\(score):"
        if !sentence.missing.isEmpty {
            words += " (no passage " + sentence.missing.map { "[\($0)]" }.joined() + ")"
        }
        return words + " " + (sentence.text.count > 300 ? sentence.text.prefix(299) + "…" : sentence.text)
    }

    static func figure(_ value: Double) -> String { String(format: "%.2f", value) }

    /// The report as the `verification` object of `--json`.
    static func verificationJSON(_ report: CitationReport) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        let sentences: [JSONValue] = report.sentences.map { sentence in
            [
                "text": .string(sentence.text), "citations": .array(sentence.citations.map { .integer($0) }),
                "missing": .array(sentence.missing.map { .integer($0) }), "verdict": .string(sentence.verdict.rawValue),
                "score": number(sentence.score), "similarity": number(sentence.similarity),
                "overlap": number(sentence.overlap), "best_source": sentence.bestSource.map { .integer($0) } ?? .null,
                "snippet": sentence.snippet.map { .string($0) } ?? .null,
            ]
        }
        return [
            "flagged": .integer(report.flagged.count), "supported": .integer(report.supportedCount),
            "checked": .integer(report.sentences.count), "not_checked": .integer(report.skipped),
            "truncated": .bool(report.truncated), "threshold": number(report.threshold),
            "measure": .string(report.usedEmbedding ? "minilm+words" : "words"), "sentences": .array(sentences),
        ]
    }
}
