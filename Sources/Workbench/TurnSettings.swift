import ResponsesAPI

/// The settings one turn is built from. (The full registry of every knob grows from here.)
public struct TurnSettings: Sendable, Hashable {
    public static let defaultModel = "gpt-4.1-mini"

    public var model: String
    public var instructions: String?
    public var stream: Bool
    /// The preset these settings came from, recorded with each exchange.
    public var preset: String?
    /// Other create-response fields (from a preset), sent as written.
    public var extraBody: JSONObject = JSONObject()

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
}
