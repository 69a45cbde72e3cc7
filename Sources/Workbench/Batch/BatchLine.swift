import ResponsesAPI

/// One line of `batch submit`'s input, as written. Either a prompt, composed with the preset exactly as `ask`
/// would compose it:
///
///     {"id": "q1", "input": "...", "vars": {"name": "Ada"}, "model": "gpt-4.1", "settings": {"temperature": 0}}
///
/// (`input` a string or a list of input items; every key but `input` optional), or a full request body, sent as
/// written: `{"id": "q2", "body": {...}}` or the Batch API's own line, `{"custom_id": "q2", "method": "POST",
/// "url": "/v1/responses", "body": {...}}`.
public enum BatchLine: Sendable {
    case prompt(id: String?, input: JSONValue, variables: [String: String], settings: [(key: String, value: JSONValue)])
    case request(id: String?, body: JSONObject)

    static let promptKeys: Set<String> = ["id", "input", "vars", "model", "settings"]
    static let requestKeys: Set<String> = ["id", "custom_id", "method", "url", "body"]
    /// The Batch API's limit on a `custom_id`.
    public static let idLimit = 512

    public var id: String? {
        switch self {
        case .prompt(let id, _, _, _), .request(let id, _): id
        }
    }

    /// The line parsed; what is wrong with it as (key path, message) pairs, every one found.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> Result<BatchLine, Problems> {
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(bytes))
        } catch {
            return .failure(Problems([(nil, "not JSON (\(error))")]))
        }
        guard case .object(let object) = json else {
            return .failure(Problems([(nil, "a line is a JSON object, not \(JSONSchemaValidator.describe(json))")]))
        }
        var problems: [(String?, String)] = []
        let id = readID(object, &problems)
        if object["body"] != nil {
            for key in object.keys.sorted() where !requestKeys.contains(key) {
                problems.append((key, "unknown key beside body (a full request's settings go inside body)"))
            }
            if let method = object["method"], method.stringValue?.uppercased() != "POST" {
                problems.append(("method", "\(method.compactString) is not POST"))
            }
            if let url = object["url"], url.stringValue != "/v1/responses" {
                problems.append(("url", "\(url.compactString) is not /v1/responses (this batch is of responses)"))
            }
            guard case .object(let body)? = object["body"] else {
                problems.append(("body", "a request body is a JSON object"))
                return .failure(Problems(problems))
            }
            if body["input"] == nil { problems.append(("body.input", "missing")) }
            if let model = body["model"] {
                if model.stringValue?.isEmpty != false {
                    problems.append(("body.model", "a model name is a non-empty string"))
                }
            } else {
                problems.append(("body.model", "missing"))
            }
            if body["stream"]?.boolValue == true {
                problems.append(("body.stream", "a batch's answers are not streamed"))
            }
            if body["background"]?.boolValue == true {
                problems.append(("body.background", "a batch's requests are not background responses"))
            }
            return problems.isEmpty ? .success(.request(id: id, body: body)) : .failure(Problems(problems))
        }
        for key in object.keys.sorted() where !promptKeys.contains(key) {
            let hint =
                SettingsRegistry.descriptor(for: key) != nil
                ? " (a setting goes in \"settings\": {\"\(key)\": ...})"
                : " (a line has id, input, vars, model, settings; a full request goes in \"body\")"
            problems.append((key, "unknown key" + hint))
        }
        let input = object["input"]
        switch input {
        case .string(let text)? where !text.isEmpty: break
        case .array?: break
        case nil: problems.append(("input", "missing"))
        default: problems.append(("input", "a prompt is a non-empty string or a list of input items"))
        }
        var variables: [String: String] = [:]
        switch object["vars"] {
        case .object(let values)?:
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .string(let text): variables[name] = text
                case .integer, .number, .bool: variables[name] = value.compactString
                default:
                    problems.append(
                        ("vars.\(name)", "a variable's value is text, not \(JSONSchemaValidator.describe(value))"))
                }
            }
        case nil: break
        case let other?:
            problems.append(("vars", "an object of NAME: value, not \(JSONSchemaValidator.describe(other))"))
        }
        var settings: [(key: String, value: JSONValue)] = []
        if let model = object["model"] {
            if let name = model.stringValue, !name.isEmpty {
                settings.append(("model", model))
            } else {
                problems.append(("model", "a model name is a non-empty string"))
            }
        }
        switch object["settings"] {
        case .object(let values)?:
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let descriptor = SettingsRegistry.descriptor(for: key) else {
                    problems.append(("settings.\(key)", SettingsRegistry.unknown(key).message))
                    continue
                }
                do {
                    try descriptor.validate(value)
                    settings.append((key, value))
                } catch {
                    problems.append(("settings.\(key)", error.message))
                }
            }
        case nil: break
        case let other?:
            problems.append(("settings", "an object of KEY: value, not \(JSONSchemaValidator.describe(other))"))
        }
        guard problems.isEmpty, let input else { return .failure(Problems(problems)) }
        return .success(.prompt(id: id, input: input, variables: variables, settings: settings))
    }

    /// The line's `id` (or `custom_id`): text or a whole number, at most `idLimit` characters.
    private static func readID(_ object: JSONObject, _ problems: inout [(String?, String)]) -> String? {
        let key = object["custom_id"] != nil ? "custom_id" : "id"
        guard let value = object[key] else { return nil }
        let id: String
        switch value {
        case .string(let text): id = text
        case .integer(let number): id = String(number)
        default:
            problems.append((key, "an id is text or a whole number, not \(JSONSchemaValidator.describe(value))"))
            return nil
        }
        if id.isEmpty || id.utf8.count > idLimit {
            problems.append((key, "an id has 1 to \(idLimit) bytes"))
            return nil
        }
        return id
    }

    /// What is wrong with a line: (key path or nil, message) pairs.
    public struct Problems: Error, Sendable {
        public var items: [(key: String?, message: String)]
        init(_ items: [(String?, String)]) { self.items = items.map { (key: $0.0, message: $0.1) } }
    }
}
