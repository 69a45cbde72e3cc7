import Foundation
import ResponsesAPI

/// Checks JSON values against a JSON Schema: the keywords structured outputs use — `type` (a name or a
/// list of them; an integer is a number too), `properties`, `required`, `additionalProperties` (a boolean or
/// a schema), `items` (and `prefixItems`), `enum`, `const`, `minimum`/`maximum` (and their exclusive forms),
/// `minLength`/`maxLength`, `minItems`/`maxItems`, `anyOf`, `allOf`, `oneOf` and `$ref` to a place in the
/// same document (`#/$defs/NAME`, `#/definitions/NAME`, `#`). Keywords it does not know are ignored, as
/// JSON Schema says. Each violation names where it is as a JSON path (`$.items[2].age`).
///
///     let validator = JSONSchemaValidator(schema: schema)
///     for violation in validator.violations(of: answer) { print(violation) }
///     // $.items[2].age: expected integer, got string "x"
public struct JSONSchemaValidator: Sendable {
    /// The whole schema (where `$ref`s are resolved).
    public let schema: JSONValue

    /// `$ref`s followed within one value before the schema is taken to loop.
    static let maximumDepth = 64

    public init(schema: JSONValue) {
        self.schema = schema
    }

    public init(schema: JSONObject) {
        self.init(schema: .object(schema))
    }

    /// Every way `value` breaks the schema, in document order; empty when it conforms.
    public func violations(of value: JSONValue) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        check(value, against: schema, at: "$", depth: 0, into: &found)
        return found
    }

    /// Throws the first way `value` breaks the schema.
    public func validate(_ value: JSONValue) throws(SchemaViolation) {
        if let first = violations(of: value).first { throw first }
    }

    // MARK: The walk

    func check(
        _ value: JSONValue, against schema: JSONValue, at path: String, depth: Int, into found: inout [SchemaViolation]
    ) {
        switch schema {
        case .bool(true): return
        case .bool(false):
            found.append(SchemaViolation(path: path, "not allowed here (the schema is false)"))
            return
        case .object(let keywords): check(value, against: keywords, at: path, depth: depth, into: &found)
        default: return  // not a schema: nothing to check
        }
    }

    func check(
        _ value: JSONValue, against keywords: JSONObject, at path: String, depth: Int,
        into found: inout [SchemaViolation]
    ) {
        if let reference = keywords["$ref"]?.stringValue {
            guard depth < Self.maximumDepth else {
                found.append(SchemaViolation(path: path, "$ref \(reference) refers to itself without end"))
                return
            }
            guard let target = resolve(reference) else {
                found.append(SchemaViolation(path: path, "cannot resolve $ref \(reference) in the schema"))
                return
            }
            check(value, against: target, at: path, depth: depth + 1, into: &found)
        }
        // A value of the wrong type has nothing more worth saying about it.
        if let problem = typeProblem(value, keywords["type"]) {
            found.append(SchemaViolation(path: path, problem))
            return
        }
        if let problem = valueProblem(value, keywords) { found.append(SchemaViolation(path: path, problem)) }
        checkCombinations(value, keywords, at: path, depth: depth, into: &found)
        switch value {
        case .object(let object): checkObject(object, keywords, at: path, depth: depth, into: &found)
        case .array(let elements): checkArray(elements, keywords, at: path, depth: depth, into: &found)
        default: break
        }
    }

    func checkObject(
        _ object: JSONObject, _ keywords: JSONObject, at path: String, depth: Int,
        into found: inout [SchemaViolation]
    ) {
        let properties = keywords["properties"]?.objectValue ?? [:]
        for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            found.append(SchemaViolation(path: SchemaViolation.path(path, key: name), "required, and missing"))
        }
        for (key, member) in object {
            let memberPath = SchemaViolation.path(path, key: key)
            if let property = properties[key] {
                check(member, against: property, at: memberPath, depth: depth, into: &found)
                continue
            }
            switch keywords["additionalProperties"] {
            case .bool(false)?:
                found.append(SchemaViolation(path: memberPath, "not allowed (additionalProperties is false)"))
            case let extra? where extra.objectValue != nil:
                check(member, against: extra, at: memberPath, depth: depth, into: &found)
            default: break
            }
        }
    }

    func checkArray(
        _ elements: [JSONValue], _ keywords: JSONObject, at path: String, depth: Int,
        into found: inout [SchemaViolation]
    ) {
        if let minimum = keywords["minItems"]?.intValue, elements.count < minimum {
            found.append(SchemaViolation(path: path, "expected at least \(Self.items(minimum)), got \(elements.count)"))
        }
        if let maximum = keywords["maxItems"]?.intValue, elements.count > maximum {
            found.append(SchemaViolation(path: path, "expected at most \(Self.items(maximum)), got \(elements.count)"))
        }
        // `prefixItems` (or, as drafts before 2020-12 wrote it, `items` as a list) for the first elements;
        // `items` (a schema) for the rest.
        var positional = keywords["prefixItems"]?.arrayValue ?? []
        var rest = keywords["items"]
        if case .array(let list)? = rest {
            positional = list
            rest = keywords["additionalItems"]
        }
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            if index < positional.count {
                check(element, against: positional[index], at: elementPath, depth: depth, into: &found)
            } else if let rest {
                check(element, against: rest, at: elementPath, depth: depth, into: &found)
            }
        }
    }

    static func items(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    /// The schema `reference` points to in this document: `#` or a JSON Pointer after it.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        guard !pointer.isEmpty else { return schema }
        guard pointer.hasPrefix("/") else { return nil }
        var current: JSONValue? = schema
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .array?: current = Int(key).flatMap { current?[$0] }
            default: current = current?[key.removingPercentEncoding ?? key]
            }
        }
        return current
    }
}
