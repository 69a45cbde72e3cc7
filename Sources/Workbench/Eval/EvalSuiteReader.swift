import Foundation
import ResponsesAPI
import Yams

/// Walks a suite's YAML, keeping every problem with its line and column (`EvalSuite.parse`).
struct EvalSuiteReader {
    let path: String
    let directory: URL
    private(set) var diagnostics: [PresetDiagnostic] = []
    /// The suite's `library:`, which a case's own overrides.
    var libraryDefault = false

    init(path: String, directory: URL) {
        self.path = path
        self.directory = directory
    }

    static let topKeys = [
        "version", "name", "description", "preset", "presets", "similarity", "library", "judge_preset", "cases",
    ]
    static let caseKeys = ["id", "description", "input", "input_file", "vars", "library", "expect"]

    var sortedDiagnostics: [PresetDiagnostic] {
        diagnostics.enumerated().sorted {
            ($0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.line, $1.element.location.column, $1.offset)
        }.map(\.element)
    }

    func location(_ node: Node) -> SourceLocation {
        SourceLocation(path: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    mutating func report(_ node: Node, _ keyPath: String, _ message: String) {
        diagnostics.append(PresetDiagnostic(location: location(node), keyPath: keyPath, message: message))
    }

    func tag(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    /// A mapping's pairs with scalar keys; anything else reported.
    mutating func pairs(_ node: Node, _ keyPath: String, known: [String]) -> [(
        key: String, keyNode: Node, value: Node
    )]? {
        guard case .mapping(let mapping) = node else {
            report(node, keyPath, "expected a mapping (\(known.joined(separator: ", ")))")
            return nil
        }
        var result: [(key: String, keyNode: Node, value: Node)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                report(key, keyPath, "a key must be a plain name")
                continue
            }
            if !known.contains(name) {
                let near = NearestName.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                report(key, keyPath, "unknown key '\(name)'\(near); known: \(known.joined(separator: ", "))")
                continue
            }
            result.append((name, key, value))
        }
        return result
    }

    mutating func string(_ node: Node, _ keyPath: String) -> String? {
        guard case .scalar(let scalar) = node, tag(node) == .str || tag(node) == .int || tag(node) == .float else {
            report(node, keyPath, "expected a string")
            return nil
        }
        return scalar.string
    }

    mutating func bool(_ node: Node, _ keyPath: String) -> Bool? {
        guard case .scalar(let scalar) = node, tag(node) == .bool else {
            report(node, keyPath, "expected true or false")
            return nil
        }
        return scalar.string.lowercased() == "true"
    }

    mutating func number(_ node: Node, _ keyPath: String) -> Double? {
        guard case .scalar(let scalar) = node, tag(node) == .int || tag(node) == .float,
            let value = Double(scalar.string),
            value >= 0
        else {
            report(node, keyPath, "expected a number of 0 or more")
            return nil
        }
        return value
    }

    mutating func read(_ text: String) -> EvalSuite? {
        let root: Node?
        do {
            root = try PresetValidator.compose(text, path: path)
        } catch {
            diagnostics += error.diagnostics
            return nil
        }
        guard let root else {
            diagnostics.append(
                PresetDiagnostic(
                    location: SourceLocation(path: path, line: 1, column: 1), keyPath: "",
                    message: "the file is empty; a suite starts with version: 1"))
            return nil
        }
        guard let top = pairs(root, "", known: Self.topKeys) else { return nil }
        var suite = EvalSuite(path: path, name: "", presets: [], cases: [])
        var sawVersion = false
        var sawCases = false
        // Read first: each case's library: is over the suite's.
        if let value = top.first(where: { $0.key == "library" })?.value {
            libraryDefault = bool(value, "library") ?? false
        }
        for (key, keyNode, value) in top {
            switch key {
            case "version":
                sawVersion = true
                if value.scalar?.string != String(EvalSuite.supportedVersion) || tag(value) != .int {
                    report(value, key, "version must be \(EvalSuite.supportedVersion)")
                }
            case "name": suite.name = string(value, key) ?? ""
            case "description": _ = string(value, key)
            case "preset":
                if let name = string(value, key) { add(preset: name, at: value, to: &suite) }
            case "presets":
                guard case .sequence(let names) = value else {
                    report(value, key, "expected a list of preset names, as [default, terse]")
                    continue
                }
                for item in names {
                    if let name = string(item, key) { add(preset: name, at: item, to: &suite) }
                }
            case "similarity":
                switch value.scalar?.string {
                case "minilm": suite.acceptsWordOverlap = false
                case "word_overlap": suite.acceptsWordOverlap = true
                default: report(value, key, "expected minilm (the default) or word_overlap")
                }
            case "library": break
            case "judge_preset":
                guard let name = string(value, key) else { continue }
                suite.judgePreset = name
                if suite.judgePresetLocations[name] == nil { suite.judgePresetLocations[name] = location(value) }
            case "cases":
                sawCases = true
                guard case .sequence(let items) = value, !items.isEmpty else {
                    report(value, key, "expected a list of cases, each with an id")
                    continue
                }
                var seen: [String: SourceLocation] = [:]
                for (index, item) in items.enumerated() {
                    guard let parsed = readCase(item, index: index, suite: &suite) else { continue }
                    if let first = seen[parsed.id] {
                        report(item, "cases[\(index)].id", "duplicate case id '\(parsed.id)' (first at \(first))")
                        continue
                    }
                    seen[parsed.id] = parsed.location
                    suite.cases.append(parsed)
                }
            default: report(keyNode, key, "unknown key")
            }
        }
        if let preset = suite.judgePreset {
            for index in suite.cases.indices {
                suite.cases[index].assertions = suite.cases[index].assertions.map { assertion in
                    guard case .judge(var spec) = assertion, spec.preset == nil else { return assertion }
                    spec.preset = preset
                    return .judge(spec)
                }
            }
        }
        if !sawVersion { report(root, "", "'version' is missing; start the file with version: 1") }
        if !sawCases { report(root, "", "'cases' is missing: a suite needs at least one case") }
        return suite
    }

    private mutating func add(preset name: String, at node: Node, to suite: inout EvalSuite) {
        guard !suite.presets.contains(name) else { return report(node, "presets", "preset '\(name)' is listed twice") }
        suite.presets.append(name)
        suite.presetLocations[name] = location(node)
    }
}
