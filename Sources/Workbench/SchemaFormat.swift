import Foundation
import ResponsesAPI

/// The `text.format` of `ask --schema`: a JSON Schema from a file, or from the concise form
/// (`'name, age int, bio: one sentence'`), as the `json_schema` format the API takes. It is strict when
/// the schema allows it (every object closed with `additionalProperties: false` and every property
/// required); `notes` says why when it is not.
public struct SchemaFormat: Sendable, Hashable {
    /// The format's name: `output`, or the file's name without `.json` (letters, digits, `_` and `-`).
    public var name: String
    public var schema: JSONObject
    public var strict: Bool
    /// What the user should know (why the format is not strict).
    public var notes: [String] = []

    public init(name: String, schema: JSONObject, strict: Bool) {
        self.name = name
        self.schema = schema
        self.strict = strict
    }

    /// The value of the request's `text.format`.
    public var format: JSONObject {
        [
            "type": "json_schema", "name": .string(name), "schema": .object(schema), "strict": .bool(strict),
        ]
    }

    /// `argument` read as a file when it names one (or ends in `.json`), else as the concise form;
    /// `multiple` asks for a list of them (`{"items": [...]}`). Relative paths are read from `directory`.
    public static func load(_ argument: String, multiple: Bool = false, relativeTo directory: URL? = nil)
        throws(SchemaArgumentError) -> SchemaFormat
    {
        let base = URL(
            fileURLWithPath: directory?.path ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let url = URL(fileURLWithPath: argument, relativeTo: base).standardizedFileURL
        var isDirectory: ObjCBool = false
        let isFile =
            !argument.contains("\n") && FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
        var name = "output"
        var schema: JSONObject
        var requestedStrict = true
        if isFile || argument.lowercased().hasSuffix(".json") {
            let file = try read(url, as: argument)
            schema = file.schema
            name = file.name ?? sanitizedName(url.deletingPathExtension().lastPathComponent)
            requestedStrict = file.strict ?? true
        } else {
            do {
                schema = try ConciseSchema.parse(argument)
            } catch {
                throw .concise(error)
            }
        }
        if multiple { schema = ConciseSchema.multiple(schema) }
        let problem = strictnessProblem(.object(schema), at: "#")
        var format = SchemaFormat(name: name, schema: schema, strict: requestedStrict && problem == nil)
        if requestedStrict, let problem {
            format.notes.append(
                "the schema is sent with strict: false, as \(problem): strict mode needs every object to list all "
                    + "its properties in required and to set additionalProperties: false")
        }
        return format
    }

    /// A file's schema: a JSON Schema, or a format as the API takes it (`{"name", "schema", "strict"}`).
    static func read(_ url: URL, as argument: String) throws(SchemaArgumentError) -> (
        schema: JSONObject, name: String?, strict: Bool?
    ) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw .unreadable(path: argument, reason: exists ? "cannot read it" : "no such file")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(data))
        } catch {
            throw .invalidJSON(SourceLocation(path: argument, line: error.line, column: error.column), error.message)
        }
        guard case .object(let object) = value else {
            throw .notASchema(path: argument, found: String(value.compactString.prefix(40)))
        }
        if case .object(let inner)? = object["schema"], object["type"] == nil, object["properties"] == nil {
            return (inner, object["name"]?.stringValue.map(sanitizedName), object["strict"]?.boolValue)
        }
        return (object, nil, nil)
    }

    /// `stem` with anything but letters, digits, `_` and `-` made `_`, at most 64 characters (`output` when
    /// nothing is left).
    static func sanitizedName(_ stem: String) -> String {
        let cleaned = String(
            stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" }.prefix(64))
        return cleaned.isEmpty ? "output" : cleaned
    }

    /// Where `schema` (at `location`, a JSON Pointer into the document) keeps strict mode from taking it,
    /// or nil: the root must be an object, and each object must require all its properties and allow no
    /// others.
    static func strictnessProblem(_ schema: JSONValue, at location: String) -> String? {
        if location == "#", schema["type"]?.stringValue != "object" {
            return "its root is not \"type\": \"object\""
        }
        guard case .object(let keywords) = schema else { return nil }
        let isObject = keywords["type"]?.stringValue == "object" || keywords["properties"] != nil
        if isObject {
            if keywords["additionalProperties"] != .bool(false) {
                return "the object at \(location) does not set additionalProperties: false"
            }
            let required = Set(keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            if let missing = keywords["properties"]?.objectValue?.keys.first(where: { !required.contains($0) }) {
                return "the object at \(location) does not require \"\(missing)\""
            }
        }
        for (key, child) in keywords {
            switch (key, child) {
            case ("properties", .object(let members)), ("$defs", .object(let members)),
                ("definitions", .object(let members)):
                for (name, member) in members {
                    if let problem = strictnessProblem(member, at: "\(location)/\(key)/\(pointerToken(name))") {
                        return problem
                    }
                }
            case ("items", _):
                if let problem = strictnessProblem(child, at: "\(location)/\(key)") { return problem }
            case ("anyOf", .array(let list)), ("allOf", .array(let list)), ("oneOf", .array(let list)),
                ("prefixItems", .array(let list)):
                for (index, member) in list.enumerated() {
                    if let problem = strictnessProblem(member, at: "\(location)/\(key)/\(index)") { return problem }
                }
            default: break
            }
        }
        return nil
    }

    static func pointerToken(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
