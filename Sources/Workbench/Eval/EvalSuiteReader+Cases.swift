import Foundation
import ResponsesAPI
import Yams

extension EvalSuiteReader {
    /// One `- id: ...` entry of `cases:`.
    mutating func readCase(_ node: Node, index: Int, suite: inout EvalSuite) -> EvalCase? {
        let at = "cases[\(index)]"
        let problemsBefore = diagnostics.count
        guard let fields = pairs(node, at, known: Self.caseKeys) else { return nil }
        var id: String?
        var input: String?
        var variables: [String: String] = [:]
        var hasVariables = false
        var library = libraryDefault
        var assertions: [EvalAssertion] = []
        for (key, _, value) in fields {
            switch key {
            case "id": id = string(value, "\(at).id")
            case "description": _ = string(value, "\(at).description")
            case "input":
                if let text = string(value, "\(at).input") {
                    if input != nil { report(value, "\(at).input", "give input or input_file, not both") }
                    input = text
                }
            case "input_file":
                guard let file = string(value, "\(at).input_file") else { continue }
                let url = URL(fileURLWithPath: file, relativeTo: directory).standardizedFileURL
                guard let data = FileManager.default.contents(atPath: url.path),
                    let text = String(data: data, encoding: .utf8)
                else {
                    report(value, "\(at).input_file", "cannot read \(url.path) as UTF-8 text")
                    continue
                }
                if input != nil { report(value, "\(at).input_file", "give input or input_file, not both") }
                input = text
            case "library": library = bool(value, "\(at).library") ?? library
            case "vars":
                hasVariables = true
                guard case .mapping = value else {
                    report(value, "\(at).vars", "expected a mapping of variables, as {name: Ada}")
                    continue
                }
            case "expect":
                guard case .sequence(let items) = value else {
                    report(
                        value, "\(at).expect", "expected a list of assertions, each a one-key map (- contains: \"...\")"
                    )
                    continue
                }
                for (number, item) in items.enumerated() {
                    if let assertion = readAssertion(item, "\(at).expect[\(number)]", suite: &suite) {
                        assertions.append(assertion)
                    }
                }
            default: break
            }
        }
        if hasVariables, case .mapping(let mapping)? = fields.first(where: { $0.key == "vars" })?.value {
            for (key, value) in mapping {
                guard let name = key.scalar?.string, TemplateVariables.isName(name) else {
                    report(key, "\(at).vars", "a variable's name is a letter or _, then letters, digits, _ or -")
                    continue
                }
                if let text = string(value, "\(at).vars.\(name)") { variables[name] = text }
            }
        }
        guard let id else {
            report(node, at, "each case needs an id")
            return nil
        }
        // (Not said again of a case whose input key is misspelled or whose file cannot be read.)
        if input == nil, !hasVariables, diagnostics.count == problemsBefore {
            report(node, at, "case '\(id)' needs an input (input: or input_file:) or vars: for its preset")
        }
        return EvalCase(
            id: id, input: input ?? "", variables: variables, assertions: assertions, location: location(node),
            library: library)
    }

    /// `- contains: "Ada"`: one key, one of `EvalAssertion.names`.
    mutating func readAssertion(_ node: Node, _ keyPath: String, suite: inout EvalSuite) -> EvalAssertion? {
        guard case .mapping(let mapping) = node, mapping.count == 1, let pair = mapping.first,
            let name = pair.key.scalar?.string
        else {
            report(node, keyPath, "an assertion is a one-key map, as - contains: \"Ada\"")
            return nil
        }
        let (key, value) = (pair.key, pair.value)
        let at = "\(keyPath).\(name)"
        switch name {
        case "contains": return string(value, at).map(EvalAssertion.contains)
        case "not_contains": return string(value, at).map(EvalAssertion.notContains)
        case "equals": return string(value, at).map(EvalAssertion.equals)
        case "regex":
            guard let pattern = string(value, at) else { return nil }
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                report(value, at, "the regular expression \(EvalAssertion.quoted(pattern)) does not compile")
                return nil
            }
            return .regex(pattern)
        case "json_schema": return readSchema(value, at).map(EvalAssertion.jsonSchema)
        case "similar":
            guard let fields = pairs(value, at, known: ["text", "threshold"]) else { return nil }
            var text: String?
            var threshold = 0.8
            for (field, _, item) in fields {
                if field == "text" { text = string(item, "\(at).text") }
                if field == "threshold", let given = number(item, "\(at).threshold") {
                    if given > 1 { report(item, "\(at).threshold", "a threshold is between 0 and 1") }
                    threshold = given
                }
            }
            guard let text else {
                report(value, at, "similar needs text: (the answer it should resemble)")
                return nil
            }
            if suite.similarLocation == nil { suite.similarLocation = location(key) }
            return .similar(text: text, threshold: threshold)
        case "max_latency_ms": return number(value, at).map(EvalAssertion.maxLatencyMs)
        case "max_cost": return number(value, at).map(EvalAssertion.maxCost)
        case "max_tokens":
            guard tag(value) == .int, let count = value.scalar.flatMap({ Int($0.string) }), count >= 0 else {
                report(value, at, "expected a whole number of output tokens")
                return nil
            }
            return .maxTokens(count)
        case "cites": return readCitations(value, at).map(EvalAssertion.cites)
        case "judge": return readJudge(value, at, suite: &suite).map(EvalAssertion.judge)
        default:
            let near = NearestName.closest(to: name, in: EvalAssertion.names).map { " (did you mean '\($0)'?)" } ?? ""
            report(
                key, keyPath,
                "unknown assertion '\(name)'\(near); known: \(EvalAssertion.names.joined(separator: ", "))")
            return nil
        }
    }

    /// An inline schema (a mapping), or a JSON file's path relative to the suite.
    mutating func readSchema(_ node: Node, _ keyPath: String) -> JSONValue? {
        if case .scalar(let scalar) = node {
            let url = URL(fileURLWithPath: scalar.string, relativeTo: directory).standardizedFileURL
            guard let data = FileManager.default.contents(atPath: url.path) else {
                report(node, keyPath, "cannot read \(url.path): no such file")
                return nil
            }
            guard let value = try? JSONValue.parse(Array(data)), case .object = value else {
                report(node, keyPath, "\(url.path) is not a JSON Schema object")
                return nil
            }
            return value
        }
        guard case .mapping = node, let value = json(node) else {
            report(node, keyPath, "expected a JSON Schema (a mapping) or a file's path")
            return nil
        }
        return value
    }

    /// A YAML node as JSON (mappings keep their order).
    func json(_ node: Node) -> JSONValue? {
        switch node {
        case .scalar(let scalar):
            switch tag(node) {
            case .int: return Int(scalar.string).map(JSONValue.integer)
            case .float: return Double(scalar.string).map(JSONValue.number)
            case .bool: return .bool(scalar.string.lowercased() == "true")
            case .null: return .null
            default: return .string(scalar.string)
            }
        case .sequence(let items):
            var values: [JSONValue] = []
            for item in items {
                guard let value = json(item) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                guard let name = key.scalar?.string, let converted = json(value) else { return nil }
                object[name] = converted
            }
            return .object(object)
        case .alias: return nil
        }
    }
}
