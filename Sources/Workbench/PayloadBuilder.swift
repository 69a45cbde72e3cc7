import ResponsesAPI

/// Turns settings, the conversation and the user's input into the exact request body.
///
/// Local-only parts of the template (function handlers) are left out; MCP header templates
/// (`"Bearer ${TOKEN}"`) are filled from the environment when building for sending, and left as
/// written when building for display (`/payload`, `--dry-run`), so a secret never reaches the screen.
public struct PayloadBuilder: Sendable {
    public enum Purpose: Sendable {
        /// The body that goes over the wire: environment references filled in, every check enforced.
        case send(AppEnvironment)
        /// The same body for people to read: references kept as written.
        case display
    }

    public init() {}

    /// The body for display; never fails.
    public func build(settings: TurnSettings, conversation: Conversation?, input: JSONValue) -> CreateResponseRequest {
        (try? build(settings: settings, conversation: conversation, input: input, for: .display))
            ?? CreateResponseRequest()
    }

    public func build(settings: TurnSettings, conversation: Conversation?, input: String) -> CreateResponseRequest {
        build(settings: settings, conversation: conversation, input: .string(input))
    }

    public func build(
        settings: TurnSettings, conversation: Conversation?, input: JSONValue, for purpose: Purpose
    ) throws(SettingError) -> CreateResponseRequest {
        var request = CreateResponseRequest(
            model: settings.model, input: input, instructions: settings.instructions,
            previousResponseID: conversation?.previousResponseID)
        for (key, value) in settings.template where request.body[key] == nil {
            request.body[key] = key == "tools" ? try tools(value, purpose) : value
        }
        conversation?.apply(to: &request, input: input)
        for (key, value) in settings.extraBody { request.body[key] = value }
        request.stream = settings.stream
        return request
    }

    /// Problems that stop a request from being sent but not from being shown.
    public func problems(settings: TurnSettings) -> [String] {
        var problems: [String] = []
        for (index, tool) in (settings.template["tools"]?.arrayValue ?? []).enumerated()
        where tool["type"]?.stringValue == "file_search" && (tool["vector_store_ids"]?.arrayValue ?? []).isEmpty {
            problems.append(
                "tools[\(index)]: file_search has no vector stores; set them with --set file_search.vector_store_ids=vs_... "
                    + "(or /set file_search.vector_store_ids vs_... in the console)")
        }
        return problems
    }

    /// The tools as the API takes them.
    func tools(_ value: JSONValue, _ purpose: Purpose) throws(SettingError) -> JSONValue {
        guard case .array(let tools) = value else { return value }
        var result: [JSONValue] = []
        for (index, tool) in tools.enumerated() {
            guard case .object(var object) = tool else {
                result.append(tool)
                continue
            }
            switch object["type"]?.stringValue {
            case "function":
                object["handler"] = nil
                if object["parameters"] == nil {
                    object["parameters"] = ["type": "object", "properties": [:], "additionalProperties": false]
                }
                if object["strict"] == nil { object["strict"] = true }
            case "mcp":
                if case .send(let environment) = purpose {
                    if case .object(let headers)? = object["headers"] {
                        var filled = JSONObject()
                        for (name, template) in headers {
                            filled[name] = .string(
                                try EnvironmentTemplate.expand(
                                    template.stringValue ?? "", environment: environment,
                                    keyPath: "tools[\(index)].headers.\(name)"))
                        }
                        object["headers"] = .object(filled)
                    }
                    if let template = object["authorization"]?.stringValue {
                        object["authorization"] = .string(
                            try EnvironmentTemplate.expand(
                                template, environment: environment, keyPath: "tools[\(index)].authorization"))
                    }
                }
            default:
                break
            }
            result.append(.object(object))
        }
        return .array(result)
    }

    /// `object` with the value at a dotted path set, creating the objects on the way; or removed, for nil,
    /// along with the objects the removal leaves empty.
    public static func setting(_ path: ArraySlice<String>, to value: JSONValue?, in object: JSONObject) -> JSONObject {
        var object = object
        guard let key = path.first else { return object }
        if path.count == 1 {
            object[key] = value
        } else if value == nil {
            guard case .object(let child)? = object[key] else { return object }
            let remaining = setting(path.dropFirst(), to: nil, in: child)
            object[key] = remaining.isEmpty ? nil : .object(remaining)
        } else {
            object[key] = .object(setting(path.dropFirst(), to: value, in: object[key]?.objectValue ?? JSONObject()))
        }
        return object
    }
}
