import Foundation
import ResponsesAPI
import Yams

/// Reads a YAML (or JSON) document along a `ValueSpec`: the result is plain JSON, every problem is a
/// `PresetDiagnostic` with its line and column, and the location of every key path is kept for checks
/// made later (a schema file that cannot be read is reported where its name is written).
struct PresetValidator {
    let path: String
    /// Dotted paths of every key the schema knows (for "did you mean reasoning.effort?" when a key is
    /// written at the wrong level).
    let knownPaths: [String]
    private(set) var diagnostics: [PresetDiagnostic] = []
    var locations: [String: SourceLocation] = [:]

    init(path: String, knownPaths: [String]) {
        self.path = path
        self.knownPaths = knownPaths
    }

    /// YAML 1.2's core rules: only true/false are booleans (so `country: NO` stays a string), no
    /// timestamps.
    static let resolver = Resolver.basic
        .appending(try! Resolver.Rule(.bool, "^(?:true|True|TRUE|false|False|FALSE)$"))
        .appending(.int).appending(.float).appending(.null)

    /// Parses `text`; a syntax error becomes a diagnostic with the parser's line and column.
    static func compose(_ text: String, path: String) throws(PresetError) -> Node? {
        do {
            return try Yams.compose(yaml: text, resolver)
        } catch let error as YamlError {
            throw PresetError(diagnostics: [diagnostic(for: error, path: path)])
        } catch {
            throw PresetError(message: "\(path): cannot parse: \(error)")
        }
    }

    static func diagnostic(for error: YamlError, path: String) -> PresetDiagnostic {
        func at(_ mark: Mark, _ message: String) -> PresetDiagnostic {
            PresetDiagnostic(
                location: SourceLocation(path: path, line: mark.line, column: mark.column), keyPath: "",
                message: message)
        }
        func described(_ problem: String, _ context: YamlError.Context?) -> String {
            guard let context else { return "YAML syntax: \(problem)" }
            return
                "YAML syntax: \(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return at(mark, described(problem, context))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return at(
                context.mark, "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
        case .reader(let problem, let offset, _, let yaml):
            let prefix = offset.map { String(yaml.prefix($0)) } ?? ""
            let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
            return PresetDiagnostic(
                location: SourceLocation(path: path, line: lines.count, column: (lines.last?.count ?? 0) + 1),
                keyPath: "",
                message: "cannot read: \(problem)")
        default:
            return PresetDiagnostic(
                location: SourceLocation(path: path, line: 1, column: 1), keyPath: "", message: "\(error)")
        }
    }

    /// The resolved tag of a node (str, int, float, bool, null, map, seq).
    func tagName(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.rawValue)
    }

    func location(of node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// The location recorded for `keyPath`, else the nearest enclosing one, else the top of the file.
    func location(forKeyPath keyPath: String) -> SourceLocation {
        var candidate = keyPath
        while !candidate.isEmpty {
            if let location = locations[candidate] { return location }
            guard let cut = candidate.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            candidate = String(candidate[..<cut])
        }
        return locations[""] ?? SourceLocation(path: path, line: 1, column: 1)
    }

    mutating func report(_ keyPath: String, at location: SourceLocation, _ message: String) {
        diagnostics.append(PresetDiagnostic(location: location, keyPath: keyPath, message: message))
    }

    mutating func report(_ keyPath: String, _ message: String) {
        report(keyPath, at: location(forKeyPath: keyPath), message)
    }

    // MARK: Walking

    /// The JSON for `node` if it fits `spec`; nil (with diagnostics) if it does not.
    mutating func value(_ node: Node, _ spec: ValueSpec, at keyPath: String) -> JSONValue? {
        locations[keyPath] = locations[keyPath] ?? location(of: node)
        if case .scalar(let scalar) = node, tagName(node) == .null, scalar.style == .plain || scalar.style == .any {
            if case .json = spec { return .null }
            report(keyPath, at: location(of: node), "has no value (expected \(spec.allowed))")
            return nil
        }
        switch spec {
        case .text:
            guard case .scalar(let scalar) = node else { return mismatch(node, spec, keyPath) }
            return .string(scalar.string)
        case .integer(let minimum, let maximum):
            guard case .scalar = node, tagName(node) == .int, let number = node.int else {
                return mismatch(node, spec, keyPath)
            }
            guard number >= minimum, maximum.map({ number <= $0 }) ?? true else {
                report(keyPath, at: location(of: node), "\(number) is out of range (\(spec.allowed))")
                return nil
            }
            return .integer(number)
        case .number(let range):
            guard case .scalar = node, tagName(node) == .int || tagName(node) == .float, let number = node.float,
                number.isFinite
            else { return mismatch(node, spec, keyPath) }
            guard range.contains(number) else {
                report(
                    keyPath, at: location(of: node), "\(node.scalar?.string ?? "") is out of range (\(spec.allowed))")
                return nil
            }
            return tagName(node) == .int ? node.int.map(JSONValue.integer) : .number(number)
        case .boolean:
            guard case .scalar = node, tagName(node) == .bool, let flag = node.bool else {
                return mismatch(node, spec, keyPath)
            }
            return .bool(flag)
        case .choice(let values):
            guard case .scalar(let scalar) = node, values.contains(scalar.string) else {
                if case .scalar(let scalar) = node, let near = SettingsRegistry.closest(to: scalar.string, in: values) {
                    report(
                        keyPath, at: location(of: node),
                        "'\(scalar.string)' is not \(spec.allowed) (did you mean \(near)?)")
                    return nil
                }
                return mismatch(node, spec, keyPath)
            }
            return .string(scalar.string)
        case .list(let element, let maxCount):
            guard case .sequence(let sequence) = node else { return mismatch(node, spec, keyPath) }
            if let maxCount, sequence.count > maxCount {
                report(keyPath, at: location(of: node), "has \(sequence.count) items; at most \(maxCount) are allowed")
            }
            var items: [JSONValue] = []
            var ok = true
            for (index, item) in sequence.enumerated() {
                if let converted = value(item, element, at: "\(keyPath)[\(index)]") {
                    items.append(converted)
                } else {
                    ok = false
                }
            }
            return ok ? .array(items) : nil
        case .object(let object):
            return self.object(node, object, at: keyPath, implicit: [], what: nil)
        case .map(let element, let maxCount):
            guard case .mapping(let mapping) = node else { return mismatch(node, spec, keyPath) }
            if let maxCount, mapping.count > maxCount {
                report(keyPath, at: location(of: node), "has \(mapping.count) keys; at most \(maxCount) are allowed")
            }
            var result = JSONObject()
            var ok = true
            for (keyNode, valueNode) in mapping {
                guard let key = scalarKey(keyNode, in: keyPath) else {
                    ok = false
                    continue
                }
                let childPath = join(keyPath, key)
                locations[childPath] = location(of: keyNode)
                if let converted = value(valueNode, element, at: childPath) {
                    result[key] = converted
                } else {
                    ok = false
                }
            }
            return ok ? .object(result) : nil
        case .json:
            return json(node, at: keyPath)
        case .tagged(let tagged):
            return self.tagged(node, tagged, at: keyPath)
        case .shapes(let scalar, let list, let mapping):
            let chosen: ValueSpec?
            switch node {
            case .scalar: chosen = scalar
            case .sequence: chosen = list
            case .mapping: chosen = mapping
            case .alias: chosen = nil
            }
            guard let chosen else { return mismatch(node, spec, keyPath) }
            return value(node, chosen, at: keyPath)
        }
    }

    // MARK: Messages

    mutating func mismatch(_ node: Node, _ spec: ValueSpec, _ keyPath: String) -> JSONValue? {
        let message: String
        switch node {
        case .scalar(let scalar):
            let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
            let looksNumeric = Double(scalar.string) != nil || ["true", "false"].contains(scalar.string)
            let note = quoted && looksNumeric ? " (it is quoted, so it is text; remove the quotes)" : ""
            message = "'\(scalar.string)' is not \(spec.allowed)\(note)"
        case .sequence: message = "expected \(spec.allowed), found a list"
        case .mapping: message = "expected \(spec.allowed), found a mapping"
        case .alias: message = "YAML aliases are not supported in presets"
        }
        report(keyPath, at: location(of: node), message)
        return nil
    }

    func join(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }
}
