import Foundation
import Library
import ResponsesAPI

/// Decides whether an answer passed: each assertion of a case checked against what one call gave.
public struct EvalChecker: Sendable {
    let similarity: AnswerSimilarity

    public init(similarity: AnswerSimilarity) {
        self.similarity = similarity
    }

    /// The checker a suite runs with: `similar` needs the built-in model, unless the suite accepts word
    /// overlap (`similarity: word_overlap`); a suite with no `similar` assertion needs nothing.
    public static func forSuite(_ suite: EvalSuite, modelFolder: String) throws(EvalSuiteError) -> EvalChecker {
        let builtIn = AnswerSimilarity.builtIn(modelFolder: modelFolder)
        if suite.similarLocation != nil, !builtIn.usesModel, !suite.acceptsWordOverlap {
            throw EvalSuiteError(
                "similar: needs the built-in model all-MiniLM-L6-v2, which is not installed in \(modelFolder)"
                    + " (openresponses library model install), or similarity: word_overlap at the top of the suite"
                    + " to compare words instead",
                at: suite.similarLocation ?? SourceLocation(path: suite.path, line: 1, column: 1))
        }
        return EvalChecker(similarity: builtIn)
    }

    /// The assertions of `item` that `observation` does not meet, in the suite's order; empty: it passed.
    public func failures(of item: EvalCase, _ observation: EvalObservation) async -> [EvalFailure] {
        await verdict(of: item, observation).failures
    }

    /// What failed, and each judge's grade. A failed call fails the case with the call's error as what was
    /// seen. `judge` asks a judge (nil: a `judge:` assertion fails, saying no judge could be asked).
    public func verdict(of item: EvalCase, _ observation: EvalObservation, judge: EvalJudge.Ask? = nil) async
        -> EvalVerdict
    {
        if let error = observation.error {
            return EvalVerdict(failures: [EvalFailure(assertion: "the call", seen: error)])
        }
        var verdict = EvalVerdict()
        for assertion in item.assertions {
            if case .judge(let spec) = assertion {
                let judgement = await grade(spec, item: item, answer: observation.answer, judge: judge)
                verdict.judgements.append(judgement)
                if let seen = Self.judged(judgement, threshold: spec.threshold) {
                    verdict.failures.append(EvalFailure(assertion: assertion.words, seen: seen))
                }
            } else if let seen = await check(assertion, observation) {
                verdict.failures.append(EvalFailure(assertion: assertion.words, seen: seen))
            }
        }
        return verdict
    }

    /// The judge's grade of `answer` (an error when it cannot be asked or read).
    func grade(_ spec: EvalJudgeSpec, item: EvalCase, answer: String, judge: EvalJudge.Ask?) async -> EvalJudgement {
        guard let judge else {
            return EvalJudgement(rubric: spec.rubric, score: nil, reason: "", error: "no judge to ask")
        }
        do {
            let text = try await judge(
                EvalJudge.input(rubric: spec.rubric, question: item.input, answer: answer), spec.preset)
            return EvalJudge.read(text, rubric: spec.rubric)
        } catch {
            return EvalJudgement(
                rubric: spec.rubric, score: nil, reason: "", error: "the judge's call failed: \(error)")
        }
    }

    /// Nil when the grade meets `threshold`; else what was seen.
    static func judged(_ judgement: EvalJudgement, threshold: Double) -> String? {
        if let error = judgement.error { return error }
        let score = judgement.score ?? 0
        guard score < threshold else { return nil }
        return "score \((score * 1000).rounded() / 1000): \(excerpt(judgement.reason))"
    }

    /// Nil when `assertion` holds; else what was seen instead.
    func check(_ assertion: EvalAssertion, _ observation: EvalObservation) async -> String? {
        let answer = observation.answer
        switch assertion {
        case .contains(let text):
            return answer.contains(text) ? nil : "not in the answer \(Self.excerpt(answer))"
        case .notContains(let text):
            guard let range = answer.range(of: text) else { return nil }
            return
                "found at character \(answer.distance(from: answer.startIndex, to: range.lowerBound)) of \(Self.excerpt(answer))"
        case .regex(let pattern):
            guard let expression = try? NSRegularExpression(pattern: pattern) else {
                return "the pattern does not compile"
            }
            let whole = NSRange(answer.startIndex..., in: answer)
            return expression.firstMatch(in: answer, range: whole) == nil ? "no match in \(Self.excerpt(answer))" : nil
        case .equals(let text):
            let trimmed = answer.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed == text.trimmingCharacters(in: .whitespacesAndNewlines)
                ? nil : "the answer is \(Self.excerpt(answer))"
        case .jsonSchema(let schema):
            let value: JSONValue
            do {
                value = try JSONValue.parse(Array(answer.utf8))
            } catch {
                return "not JSON (\(error.message)): \(Self.excerpt(answer))"
            }
            let violations = JSONSchemaValidator(schema: schema).violations(of: value)
            return violations.isEmpty ? nil : violations.prefix(3).map(\.description).joined(separator: "; ")
        case .similar(let text, let threshold):
            let score: Double?
            do {
                score = try await similarity.scores([(answer, text)]).first ?? nil
            } catch {
                return "cannot compare: \(error)"
            }
            let value = score ?? 0
            return value >= threshold ? nil : "similarity \((value * 1000).rounded() / 1000) (\(similarity.measure))"
        case .maxLatencyMs(let limit):
            // Through the Batch API no call's latency is known: not checked (the report says so).
            if observation.batch != nil { return nil }
            return observation.latencyMs <= limit ? nil : String(format: "%.0f ms", observation.latencyMs)
        case .maxCost(let limit):
            guard let cost = observation.cost else { return "no cost known (no price for the model, or no usage)" }
            return cost <= limit ? nil : String(format: "$%.6f", cost)
        case .maxTokens(let limit):
            guard let tokens = observation.outputTokens else { return "no usage in the response" }
            return tokens <= limit ? nil : "\(tokens) output tokens"
        case .cites(let documents):
            return EvalLibraryAnswer.check(documents, observation)
        case .judge:
            return "a judge is asked by verdict(of:)"
        }
    }

    /// The answer quoted, cut to 80 characters (the console cleans it before a terminal sees it).
    static func excerpt(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return "\"" + (flat.count > 80 ? String(flat.prefix(77)) + "..." : flat) + "\""
    }
}

/// A call's outcome: the assertions that failed, and each judge's grade (kept in the run and its report).
public struct EvalVerdict: Sendable, Hashable {
    public var failures: [EvalFailure] = []
    public var judgements: [EvalJudgement] = []

    public init(failures: [EvalFailure] = [], judgements: [EvalJudgement] = []) {
        self.failures = failures
        self.judgements = judgements
    }
}
