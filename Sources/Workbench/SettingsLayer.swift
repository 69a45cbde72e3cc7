import ResponsesAPI

/// One source of settings: a template read from a file (config, preset) and/or `KEY=VALUE` assignments
/// (`/set`, `--set`, `--model`); an assignment of nil is an `/unset` (the key is not sent).
public struct SettingsLayer: Sendable, Hashable {
    /// Where the values come from, as `/settings` shows it ("preset deep-reasoning", "/set").
    public var label: String
    public var template: JSONObject
    public var console: JSONObject
    public var extraBody: JSONObject
    public var library: JSONObject
    public private(set) var assignments: [Assignment]

    public struct Assignment: Sendable, Hashable {
        public var key: String
        public var value: JSONValue?
    }

    public init(
        label: String, template: JSONObject = [:], console: JSONObject = [:], extraBody: JSONObject = [:],
        library: JSONObject = [:]
    ) {
        self.label = label
        self.template = template
        self.console = console
        self.extraBody = extraBody
        self.library = library
        self.assignments = []
    }

    /// Sets (or, with nil, unsets) `key`, replacing an earlier assignment of the same key.
    public mutating func assign(_ key: String, _ value: JSONValue?) {
        assignments.removeAll { $0.key == key }
        assignments.append(Assignment(key: key, value: value))
    }

    /// Forgets the assignment of `key`; true when there was one.
    @discardableResult
    public mutating func forget(_ key: String) -> Bool {
        let before = assignments.count
        assignments.removeAll { $0.key == key }
        return assignments.count != before
    }

    public mutating func forgetAll() {
        assignments.removeAll()
    }

    public func assigns(_ key: String) -> Bool {
        assignments.contains { $0.key == key }
    }

    /// Applies this layer over `settings`.
    public func apply(to settings: inout TurnSettings) {
        settings.merge(template: template, console: console, extraBody: extraBody, library: library)
        for assignment in assignments { settings.set(assignment.key, to: assignment.value) }
    }
}
