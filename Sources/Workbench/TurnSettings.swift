import ResponsesAPI

/// The settings one turn is built from: built-in defaults, then a preset, then `--set` assignments.
public struct TurnSettings: Sendable, Hashable {
    public static let defaultModel = "gpt-4.1-mini"

    public var model: String
    public var instructions: String?
    public var stream: Bool
    /// The preset these settings came from, recorded with each exchange.
    public var preset: String?
    /// Other create-response fields (from a preset), sent as written.
    public var extraBody: JSONObject = JSONObject()
    /// Fields set with `--set` / `/set`, by request-body path (`reasoning.effort`); they win over the preset's.
    public var bodySettings: [String: JSONValue] = [:]
    /// Console options (`console.show_reasoning`, `console.show_usage`).
    public var consoleOptions: [String: Bool] = [:]

    public init(model: String = TurnSettings.defaultModel, instructions: String? = nil, stream: Bool = true, preset: String? = nil) {
        self.model = model
        self.instructions = instructions
        self.stream = stream
        self.preset = preset
    }

    /// Built-in defaults, then `OPENRESPONSES_MODEL` from the environment.
    public static func defaults(environment: AppEnvironment) -> TurnSettings {
        TurnSettings(model: environment["OPENRESPONSES_MODEL"] ?? defaultModel)
    }

    /// Applies one `KEY=VALUE` assignment (validated against the registry).
    public mutating func apply(_ assignment: String) throws(SettingError) {
        let (descriptor, key, value) = try SettingsRegistry.parseAssignment(assignment)
        set(descriptor, key: key, to: value)
    }

    public mutating func set(_ descriptor: SettingDescriptor, key: String, to value: JSONValue) {
        switch key {
        case "model": model = value.stringValue ?? model
        case "instructions": instructions = value.stringValue
        case "console.stream": stream = value.boolValue ?? stream
        default:
            guard let field = descriptor.apiField else {
                consoleOptions[key] = value.boolValue
                return
            }
            let path = field.hasSuffix(".*") ? String(field.dropLast(2)) + key.dropFirst(descriptor.key.count - 2) : field
            bodySettings[path] = value
        }
    }
}
