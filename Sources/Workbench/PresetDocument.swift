import Foundation
import ResponsesAPI
import Yams

/// A preset or config file on its way in: parsed, checked against a schema, and with the files it names
/// (JSON Schemas, function parameters) read in. Every problem is kept, so one run reports them all.
struct PresetDocument {
    var object: JSONObject
    var validator: PresetValidator
    let path: String

    /// The file's text; a missing or unreadable file is one clear error.
    static func read(_ url: URL) throws(PresetError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: url.path) ? "cannot read it (not UTF-8 text?)" : "no such file"
            throw PresetError(message: "\(url.path): \(reason)")
        }
    }

    static func check(_ text: String, path: String, spec: ObjectSpec, directory: URL) throws(PresetError)
        -> PresetDocument
    {
        var validator = PresetValidator(path: path, knownPaths: PresetSchema.knownPaths(spec))
        guard let root = try PresetValidator.compose(text, path: path) else {
            throw PresetError(diagnostics: [
                PresetDiagnostic(
                    location: SourceLocation(path: path, line: 1, column: 1), keyPath: "",
                    message: "the file is empty; a preset starts with version: 1")
            ])
        }
        guard case .mapping = root else {
            throw PresetError(diagnostics: [
                PresetDiagnostic(
                    location: validator.location(of: root), keyPath: "",
                    message: "expected a mapping of keys (version, name, model, ...) at the top")
            ])
        }
        let value = validator.object(root, spec, at: "", implicit: [], what: nil)
        var document = PresetDocument(object: value?.objectValue ?? JSONObject(), validator: validator, path: path)
        if case .mapping(let mapping) = root, mapping["version"] == nil {
            document.validator.report(
                "", at: validator.location(of: root), "'version' is missing; start the file with version: 1")
        }
        if let version = document.object["version"]?.intValue, version != Preset.supportedVersion {
            document.report(
                "version", "version \(version) is not supported (this build reads version \(Preset.supportedVersion))")
        }
        document.readReferencedFiles(relativeTo: directory)
        return document
    }

    mutating func report(_ keyPath: String, _ message: String) {
        validator.report(keyPath, message)
    }

    /// Throws every problem found, in file order.
    func finish() throws(PresetError) {
        guard !validator.diagnostics.isEmpty else { return }
        let sorted = validator.diagnostics.enumerated().sorted {
            ($0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.line, $1.element.location.column, $1.offset)
        }
        throw PresetError(diagnostics: sorted.map(\.element))
    }

    /// The request fields of the document (everything but version, name, description, console, extra_body).
    var template: JSONObject {
        JSONObject(object.filter { !PresetSchema.documentKeys.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// Reads `text.format.schema_file` and `tools[i].parameters_file` into `schema` and `parameters`, and
    /// gives every function handler an absolute working directory (the preset's own by default).
    mutating func readReferencedFiles(relativeTo directory: URL) {
        if case .object(var text)? = object["text"], case .object(var format)? = text["format"],
            let file = format["schema_file"]?.stringValue
        {
            if let schema = readJSON(file, keyPath: "text.format.schema_file", relativeTo: directory) {
                format["schema_file"] = nil
                format["schema"] = schema
                text["format"] = .object(format)
                object["text"] = .object(text)
            }
        }
        guard case .array(var tools)? = object["tools"] else { return }
        for index in tools.indices {
            guard case .object(var tool) = tools[index], tool["type"]?.stringValue == "function" else { continue }
            if let file = tool["parameters_file"]?.stringValue,
                let schema = readJSON(file, keyPath: "tools[\(index)].parameters_file", relativeTo: directory)
            {
                tool["parameters_file"] = nil
                tool["parameters"] = schema
            }
            if case .object(var handler)? = tool["handler"] {
                let written = handler["working_directory"]?.stringValue ?? "."
                handler["working_directory"] = .string(
                    URL(fileURLWithPath: written, relativeTo: directory).standardizedFileURL.path)
                tool["handler"] = .object(handler)
            }
            tools[index] = .object(tool)
        }
        object["tools"] = .array(tools)
    }

    private mutating func readJSON(_ file: String, keyPath: String, relativeTo directory: URL) -> JSONValue? {
        let url = URL(fileURLWithPath: file, relativeTo: directory).standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report(keyPath, "cannot read \(url.path): no such file")
            return nil
        }
        do {
            let value = try JSONValue.parse(Array(data))
            guard case .object = value else {
                report(keyPath, "\(url.path) holds \(value.compactString.prefix(40)), not a JSON Schema mapping")
                return nil
            }
            return value
        } catch {
            validator.report(
                "", at: SourceLocation(path: url.path, line: error.line, column: error.column),
                "invalid JSON (\(error.message)), read for \(keyPath) of \(path)")
            return nil
        }
    }

    /// JSON as a YAML node tree in key order (strings always come back as strings).
    static func node(_ value: JSONValue) -> Node {
        switch value {
        case .null: return Node("null", Tag(.null))
        case .bool(let flag): return Node(flag ? "true" : "false", Tag(.bool))
        case .integer(let number): return Node(String(number), Tag(.int))
        case .number: return Node(value.compactString, Tag(.float))
        case .string(let text):
            // Plain unless it would read back as something else (true, 12, null, an empty string).
            let plain = Node(text, Tag(.implicit), .plain)
            let readsBack =
                !text.isEmpty && PresetValidator.resolver.resolveTag(of: plain) == .str
                && text.trimmingCharacters(in: .whitespaces) == text && !text.hasPrefix("${")
            let style: Node.Scalar.Style = text.contains("\n") ? .literal : readsBack ? .any : .doubleQuoted
            return Node(text, Tag(.str), style)
        case .array(let items): return Node(items.map(node))
        case .object(let object): return Node(object.map { (Node($0.key), node($0.value)) })
        }
    }
}
