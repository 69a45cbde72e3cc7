/// What is wrong with a concise schema (`ask --schema 'name, age int'`), and where: the field's number and
/// text, and the line and column (from 1) of the word at fault.
public struct ConciseSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// No field at all.
        case empty
        /// A field with a description and no name (`: a bio`).
        case missingName
        /// A second word that is not a type.
        case unknownType(String)
        /// A word after the type (a description goes after `:`).
        case extraWords(String)
        /// A name given twice.
        case duplicate(name: String, firstField: Int)
    }

    /// The field's number, from 1 (0 for the whole text).
    public var field: Int
    public var text: String
    public var line: Int
    public var column: Int
    public var problem: Problem

    public init(field: Int, text: String, line: Int, column: Int, _ problem: Problem) {
        self.field = field
        self.text = text
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// The spellings of the types, for the message.
    static let typeNames = "str, int, float, bool"

    public var description: String {
        let place = line > 1 ? "line \(line), column \(column)" : "column \(column)"
        let reason: String
        switch problem {
        case .empty:
            return "--schema: no fields: give them as 'name, age int, bio: one sentence' (types \(Self.typeNames))"
        case .missingName: reason = "no field name before ':'"
        case .unknownType(let word): reason = "unknown type \"\(word)\" (\(Self.typeNames))"
        case .extraWords(let word):
            reason = "unexpected \"\(word)\" after the type (a description goes after ':')"
        case .duplicate(let name, let first): reason = "\"\(name)\" is already field \(first)"
        }
        return "--schema: field \(field) \"\(text)\" (\(place)): \(reason)"
    }
}
