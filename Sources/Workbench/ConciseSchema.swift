import Foundation
import ResponsesAPI

/// The concise form of a JSON Schema that `ask --schema` takes (as simonw's llm does): fields separated by
/// commas, or by newlines when there is more than one line (a description may then hold commas). A field is
/// `name`, `name TYPE`, `name: description` or `name TYPE: description`, with TYPE one of `str`/`string`,
/// `int`/`integer`, `float`/`number`, `bool`/`boolean` (string when left out). The schema is an object
/// with every field required and no other properties: strict as the API takes it.
public enum ConciseSchema {
    /// The JSON Schema types the concise form names, by each of their spellings.
    static let types: [String: String] = [
        "str": "string", "string": "string", "int": "integer", "integer": "integer", "float": "number",
        "number": "number", "bool": "boolean", "boolean": "boolean",
    ]

    /// The schema `text` describes, or a `ConciseSchemaError` naming the field and the column.
    public static func parse(_ text: String) throws(ConciseSchemaError) -> JSONObject {
        var properties = JSONObject()
        var names: [String: Int] = [:]
        for field in fields(of: text) {
            let (name, property) = try parse(field)
            if let first = names[name] {
                throw field.error(at: field.start, .duplicate(name: name, firstField: first))
            }
            names[name] = field.number
            properties[name] = .object(property)
        }
        guard !properties.isEmpty else { throw ConciseSchemaError(field: 0, text: text, line: 1, column: 1, .empty) }
        return [
            "type": "object", "properties": .object(properties),
            "required": .array(properties.keys.map(JSONValue.string)), "additionalProperties": false,
        ]
    }

    /// `schema` as a list: an object whose one property, `items`, is an array of it. Definitions the schema
    /// keeps at its root (`$defs`, `definitions`) move to the new root, where its `$ref`s point.
    public static func multiple(_ schema: JSONObject) -> JSONObject {
        var item = schema
        var root: JSONObject = ["type": "object"]
        var definitions: [(String, JSONValue)] = []
        for key in ["$defs", "definitions"] {
            if let value = item[key] {
                definitions.append((key, value))
                item[key] = nil
            }
        }
        root["properties"] = ["items": ["type": "array", "items": .object(item)]]
        root["required"] = ["items"]
        root["additionalProperties"] = false
        for (key, value) in definitions { root[key] = value }
        return root
    }

    /// One field of the text: its words, where it starts (line and column from 1) and its number.
    struct Field {
        var number: Int
        var text: Substring
        var line: Int
        var start: Int

        func error(at column: Int, _ problem: ConciseSchemaError.Problem) -> ConciseSchemaError {
            ConciseSchemaError(
                field: number, text: text.trimmingCharacters(in: .whitespaces), line: line, column: column, problem)
        }
    }

    /// The non-blank fields, numbered from 1: split at newlines when there are several lines, else at commas.
    static func fields(of text: String) -> [Field] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var result: [Field] = []
        for (lineIndex, line) in lines.enumerated() {
            let pieces =
                lines.count > 1 ? [line] : line.split(separator: ",", omittingEmptySubsequences: false)
            var column = 1
            for piece in pieces {
                defer { column += piece.count + 1 }
                guard !piece.allSatisfy(\.isWhitespace) else { continue }
                result.append(Field(number: result.count + 1, text: piece, line: lineIndex + 1, start: column))
            }
        }
        return result
    }

    /// A field's name and property.
    static func parse(_ field: Field) throws(ConciseSchemaError) -> (String, JSONObject) {
        var head = field.text
        var description = ""
        if let colon = field.text.firstIndex(of: ":") {
            head = field.text[..<colon]
            description = field.text[field.text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let words = words(of: head, startingAt: field.start)
        guard let name = words.first else { throw field.error(at: field.start + head.count, .missingName) }
        var type = "string"
        if words.count > 1 {
            guard let known = types[words[1].text.lowercased()] else {
                throw field.error(at: words[1].column, .unknownType(words[1].text))
            }
            type = known
        }
        if words.count > 2 { throw field.error(at: words[2].column, .extraWords(words[2].text)) }
        var property: JSONObject = ["type": .string(type)]
        if !description.isEmpty { property["description"] = .string(description) }
        return (name.text, property)
    }

    /// The whitespace-separated words of `text` with the column each starts at (`text` starts at `start`).
    static func words(of text: Substring, startingAt start: Int) -> [(text: String, column: Int)] {
        var result: [(text: String, column: Int)] = []
        var current = ""
        var currentStart = start
        for (offset, character) in text.enumerated() {
            if character.isWhitespace {
                if !current.isEmpty { result.append((current, currentStart)) }
                current = ""
            } else {
                if current.isEmpty { currentStart = start + offset }
                current.append(character)
            }
        }
        if !current.isEmpty { result.append((current, currentStart)) }
        return result
    }
}
