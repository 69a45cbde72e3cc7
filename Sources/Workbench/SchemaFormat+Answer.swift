import Foundation
import ResponsesAPI

extension SchemaFormat {
    /// The answer's text as JSON that conforms to the schema, or why it is not.
    public func check(answer text: String) throws(AnswerMismatch) -> JSONValue {
        guard !text.allSatisfy(\.isWhitespace) else { throw .notJSON("the answer is empty") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            let start = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let excerpt = start.count > 60 ? String(start.prefix(60)) + "…" : start
            throw .notJSON(
                "line \(error.line), column \(error.column): \(error.message) (it begins \(JSONValue.string(excerpt).compactString))"
            )
        }
        let violations = JSONSchemaValidator(schema: schema).violations(of: value)
        guard violations.isEmpty else { throw .violations(violations) }
        return value
    }
}

/// An answer that is not what `--schema` asked for: not JSON at all, or JSON that breaks the schema (each
/// violation with its JSON path).
public enum AnswerMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    case notJSON(String)
    case violations([SchemaViolation])

    /// One line per problem, without `error: `.
    public var lines: [String] {
        switch self {
        case .notJSON(let reason): ["the answer is not JSON: \(reason)"]
        case .violations(let violations):
            violations.map { "the answer does not match the schema: \($0)" }
        }
    }

    public var description: String { lines.joined(separator: "\n") }
}

/// The model's output, not the user's input nor the network: a status of its own, which scripts can retry on.
extension AnswerMismatch: UserFacingError {
    public var userMessage: String { lines.first ?? "" }
    public var exitStatus: ExitStatus { .invalidAnswer }
}
