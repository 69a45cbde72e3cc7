import ResponsesAPI

/// What a value in a preset or config file may be. `PresetSchema` is a tree of these; `PresetValidator`
/// walks a parsed YAML document along it, turning it into JSON and collecting every problem with its
/// line and column.
public indirect enum ValueSpec: Sendable {
    /// Any scalar, kept as a string (`version: 2` under `prompt` is the string "2").
    case text
    case integer(minimum: Int, maximum: Int?)
    case number(ClosedRange<Double>)
    case boolean
    case choice([String])
    case list(ValueSpec, maxCount: Int? = nil)
    case object(ObjectSpec)
    /// A mapping with any key names (metadata, headers, prompt variables).
    case map(ValueSpec, maxCount: Int? = nil)
    /// Any JSON, taken as written (JSON Schemas, search filters).
    case json
    /// An object whose `type` key selects its fields (tools, text formats).
    case tagged(TaggedSpec)
    /// Different rules for a scalar, a list and a mapping (`container: cntr_123` or `container: {type: auto}`).
    case shapes(scalar: ValueSpec?, list: ValueSpec?, mapping: ValueSpec?)

    /// The rule of a registry setting, so a file and `/set` accept the same values.
    public init(_ kind: SettingDescriptor.Kind) {
        switch kind {
        case .string: self = .text
        case .integer(let minimum, let maximum): self = .integer(minimum: minimum, maximum: maximum)
        case .number(let range): self = .number(range)
        case .boolean: self = .boolean
        case .choice(let values): self = .choice(values)
        case .stringList: self = .list(.text)
        case .choiceList(let values): self = .list(.choice(values))
        }
    }

    /// The setting `key` of the registry.
    public static func setting(_ key: String) -> ValueSpec {
        guard let descriptor = SettingsRegistry.descriptor(for: key) else {
            preconditionFailure("no setting \(key) in SettingsRegistry")
        }
        return ValueSpec(descriptor.kind)
    }

    /// The allowed values in words.
    public var allowed: String {
        switch self {
        case .text: "text"
        case .integer(let minimum, let maximum?): "a whole number from \(minimum) to \(maximum)"
        case .integer(let minimum, nil): "a whole number, \(minimum) or more"
        case .number(let range):
            "a number from \(JSONValue.number(range.lowerBound).compactString) to \(JSONValue.number(range.upperBound).compactString)"
        case .boolean: "true or false"
        case .choice(let values): "one of " + values.joined(separator: ", ")
        case .list(let element, _): "a list of \(element.allowedPlural)"
        case .object(let spec): "a mapping with " + spec.fields.map(\.name).joined(separator: ", ")
        case .map: "a mapping"
        case .json: "any JSON value"
        case .tagged(let spec): "a mapping with type: " + spec.variants.map(\.type).joined(separator: " | ")
        case .shapes(let scalar, let list, let mapping):
            [scalar?.allowed, list?.allowed, mapping?.allowed].compactMap { $0 }.joined(separator: ", or ")
        }
    }

    var allowedPlural: String {
        switch self {
        case .text: "strings"
        case .choice(let values): values.joined(separator: ", ")
        case .object: "mappings"
        case .tagged(let spec): "\(spec.noun)s"
        default: allowed
        }
    }
}

/// A mapping with known keys.
public struct ObjectSpec: Sendable {
    public var fields: [(name: String, spec: ValueSpec)]
    public var required: [String]
    /// Checks across keys (one of two keys, a pattern); each issue names a key path relative to the
    /// mapping, or nil for the mapping itself.
    public var check: (@Sendable (JSONObject) -> [ObjectIssue])?

    public init(
        _ fields: [(name: String, spec: ValueSpec)], required: [String] = [],
        check: (@Sendable (JSONObject) -> [ObjectIssue])? = nil
    ) {
        self.fields = fields
        self.required = required
        self.check = check
    }

    public func spec(for name: String) -> ValueSpec? {
        fields.first { $0.name == name }?.spec
    }
}

/// A problem found by an `ObjectSpec`'s check.
public struct ObjectIssue: Sendable, Hashable {
    /// A key path relative to the mapping (`server_url`, `headers.Authorization`); nil for the mapping.
    public var key: String?
    public var message: String

    public init(_ key: String?, _ message: String) {
        self.key = key
        self.message = message
    }
}

/// Mappings told apart by their `type` key.
public struct TaggedSpec: Sendable {
    /// What one of these is called in messages ("tool", "format").
    public var noun: String
    public var variants: [(type: String, spec: ObjectSpec)]

    public init(noun: String, _ variants: [(type: String, spec: ObjectSpec)]) {
        self.noun = noun
        self.variants = variants
    }
}
