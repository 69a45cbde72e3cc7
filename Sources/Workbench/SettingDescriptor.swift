import ResponsesAPI

/// One setting: its key path, what values it takes, where it goes in the request body, and a line of help.
/// The registry of these drives `--set` validation, `openresponses settings` and `Docs/settings.md`.
public struct SettingDescriptor: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case string
        case integer(minimum: Int, maximum: Int?)
        case number(ClosedRange<Double>)
        case boolean
        case choice([String])
        /// A comma-separated list of strings.
        case stringList
        /// A comma-separated list of some of these values.
        case choiceList([String])
    }

    /// The key path users write (`reasoning.effort`). A key ending in `.*` takes any name after its prefix
    /// (`metadata.project`).
    public let key: String
    public let kind: Kind
    /// Where the value goes in the create-response body (a dotted path); nil for console options.
    public let apiField: String?
    public let help: String

    public init(_ key: String, _ kind: Kind, api apiField: String? = nil, help: String) {
        self.key = key
        self.kind = kind
        self.apiField = apiField
        self.help = help
    }

    /// The allowed values in words, for help and errors.
    public var allowed: String {
        switch kind {
        case .string: "text"
        case .integer(let minimum, let maximum?): "a whole number from \(minimum) to \(maximum)"
        case .integer(let minimum, nil): "a whole number, \(minimum) or more"
        case .number(let range):
            "a number from \(JSONValue.number(range.lowerBound).compactString) to \(JSONValue.number(range.upperBound).compactString)"
        case .boolean: "true or false"
        case .choice(let values): "one of " + values.joined(separator: ", ")
        case .stringList: "a comma-separated list"
        case .choiceList(let values): "a comma-separated list of " + values.joined(separator: ", ")
        }
    }

    /// Parses a value as typed on a command line or after `/set`.
    public func parse(_ text: String) throws(SettingError) -> JSONValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func fail() -> SettingError { SettingError("\(key): '\(text)' is not \(allowed)") }
        switch kind {
        case .string:
            return .string(text)
        case .integer(let minimum, let maximum):
            guard let value = Int(trimmed) else { throw fail() }
            guard value >= minimum, maximum.map({ value <= $0 }) ?? true else {
                throw SettingError("\(key): \(value) is out of range (\(allowed))")
            }
            return .integer(value)
        case .number(let range):
            guard let value = Double(trimmed), value.isFinite else { throw fail() }
            guard range.contains(value) else { throw SettingError("\(key): \(trimmed) is out of range (\(allowed))") }
            return Int(exactly: value).map(JSONValue.integer) ?? .number(value)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "on", "yes", "1": return .bool(true)
            case "false", "off", "no", "0": return .bool(false)
            default: throw fail()
            }
        case .choice(let values):
            guard values.contains(trimmed) else { throw notAChoice(trimmed, of: values) }
            return .string(trimmed)
        case .stringList:
            return .array(trimmed.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) })
        case .choiceList(let values):
            let items = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let wrong = items.first(where: { !values.contains($0) }) { throw notAChoice(wrong, of: values) }
            return .array(items.map(JSONValue.string))
        }
    }

    /// `'wrong' is not one of ...`, with the nearest choice when one is close.
    func notAChoice(_ wrong: String, of values: [String]) -> SettingError {
        let hint = SettingsRegistry.closest(to: wrong, in: values).map { " (did you mean \($0)?)" } ?? ""
        return SettingError("\(key): '\(wrong)' is not one of \(values.joined(separator: ", "))\(hint)")
    }

    /// Checks a value read from a file (a preset or the config file) against the kind.
    public func validate(_ value: JSONValue) throws(SettingError) {
        switch (kind, value) {
        case (.string, .string), (.stringList, .array), (.boolean, .bool): return
        case (.choiceList, .array(let items)):
            _ = try parse(items.map { $0.stringValue ?? $0.compactString }.joined(separator: ","))
        case (.integer, .integer), (.number, .integer), (.number, .number), (.choice, .string):
            _ = try parse(value.stringValue ?? value.compactString)
        default:
            throw SettingError("\(key): \(value.compactString) is not \(allowed)")
        }
    }
}

/// A setting that does not exist or a value it does not take; the message names the key.
public struct SettingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
