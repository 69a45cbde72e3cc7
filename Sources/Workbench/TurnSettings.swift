import ResponsesAPI

/// The settings one turn is built from, after every layer (defaults, config file, preset, `/set`,
/// command-line flags) has been applied: the request template, console options and extra body fields.
public struct TurnSettings: Sendable, Hashable {
    public static let defaultModel = "gpt-4.1-mini"

    /// Create-response fields (model, instructions, reasoning, tools with their local options, ...).
    public var template: JSONObject
    /// `stream`, `show_reasoning`, `show_usage`.
    public var console: JSONObject
    /// Sent as written, after everything else.
    public var extraBody: JSONObject
    /// The document library's options (`chunk_size`, `chunk_overlap`, `ocr`, `passages`): never sent.
    public var library: JSONObject = [:]
    /// The preset's input template, its variables replaced (the user's message goes at its `{{input}}`).
    public var inputTemplate: String?
    /// The preset's variables that have no value: a turn is refused until each is given.
    public var missingVariables: [MissingVariable] = []
    /// The preset in use, recorded with each exchange.
    public var preset: String?

    public init(
        model: String = TurnSettings.defaultModel, instructions: String? = nil, stream: Bool = true,
        preset: String? = nil
    ) {
        self.template = ["model": .string(model)]
        if let instructions { template["instructions"] = .string(instructions) }
        self.console = ["stream": .bool(stream)]
        self.extraBody = [:]
        self.preset = preset
    }

    public var model: String {
        get { template["model"]?.stringValue ?? Self.defaultModel }
        set { template["model"] = .string(newValue) }
    }

    public var instructions: String? {
        get { template["instructions"]?.stringValue }
        set { template["instructions"] = newValue.map(JSONValue.string) }
    }

    public var stream: Bool {
        get { console["stream"]?.boolValue ?? true }
        set { console["stream"] = .bool(newValue) }
    }

    public var showReasoning: Bool { console["show_reasoning"]?.boolValue ?? true }
    public var showUsage: Bool { console["show_usage"]?.boolValue ?? true }
    /// Render answers' Markdown on a terminal (`console.markdown`).
    public var markdown: Bool { console["markdown"]?.boolValue ?? true }

    /// Applies one `KEY=VALUE` assignment (validated against the registry).
    public mutating func apply(_ assignment: String) throws(SettingError) {
        let (_, key, value) = try SettingsRegistry.parseAssignment(assignment)
        set(key, to: value)
    }

    /// Sets registry key `key` (nil removes it: the next request does not carry it).
    public mutating func set(_ key: String, to value: JSONValue?) {
        guard let descriptor = SettingsRegistry.descriptor(for: key) else { return }
        if key.hasPrefix("console.") {
            console[String(key.dropFirst("console.".count))] = value
            return
        }
        if key.hasPrefix("library.") {
            library[String(key.dropFirst("library.".count))] = value
            return
        }
        switch key {
        case "text.format":
            template = PayloadBuilder.setting(
                ["text", "format"], to: value.map { .object(["type": $0]) }, in: template)
        case "file_search.vector_store_ids":
            setVectorStores(value?.arrayValue?.compactMap(\.stringValue))
        case "context_management.compact_threshold":
            template["context_management"] = value.map { .array([["type": "compaction", "compact_threshold": $0]]) }
        case "moderation.policy.input", "moderation.policy.output":
            let side = String(key.dropFirst("moderation.policy.".count))
            template = PayloadBuilder.setting(
                ["moderation", "policy", side], to: value.map { .object(["mode": $0]) }, in: template)
        default:
            guard let field = descriptor.apiField else { return }
            let path =
                field.hasSuffix(".*") ? String(field.dropLast(2)) + key.dropFirst(descriptor.key.count - 2) : field
            template = PayloadBuilder.setting(path.split(separator: ".").map(String.init)[...], to: value, in: template)
        }
    }

    /// The current value of registry key `key`, as `/settings` shows it.
    public func value(forKey key: String) -> JSONValue? {
        if key.hasPrefix("console.") { return console[String(key.dropFirst("console.".count))] }
        if key.hasPrefix("library.") { return library[String(key.dropFirst("library.".count))] }
        switch key {
        case "text.format": return template["text"]?["format"]?["type"]
        case "file_search.vector_store_ids": return fileSearchTool?["vector_store_ids"]
        case "context_management.compact_threshold":
            return template["context_management"]?.arrayValue?.first { $0["type"]?.stringValue == "compaction" }?[
                "compact_threshold"]
        case "moderation.policy.input", "moderation.policy.output":
            return template["moderation"]?["policy"]?[String(key.dropFirst("moderation.policy.".count))]?["mode"]
        default:
            var value: JSONValue? = .object(template)
            for part in key.split(separator: ".") { value = value?[String(part)] }
            return value
        }
    }

    var fileSearchTool: JSONValue? {
        template["tools"]?.arrayValue?.first { $0["type"]?.stringValue == "file_search" }
    }

    /// Points the file_search tool at `ids` (adding the tool if there is none); nil removes the tool.
    mutating func setVectorStores(_ ids: [String]?) {
        var tools = template["tools"]?.arrayValue ?? []
        let index = tools.firstIndex { $0["type"]?.stringValue == "file_search" }
        switch (ids, index) {
        case (nil, let index?): tools.remove(at: index)
        case (nil, nil): break
        case (let ids?, let index?):
            var tool = tools[index].objectValue ?? [:]
            tool["vector_store_ids"] = .array(ids.map(JSONValue.string))
            tools[index] = .object(tool)
        case (let ids?, nil):
            tools.append(["type": "file_search", "vector_store_ids": .array(ids.map(JSONValue.string))])
        }
        template["tools"] = tools.isEmpty ? nil : .array(tools)
    }

    /// Merges a layer's template over this one: mappings merge key by key, except tagged ones (with a
    /// `type`, such as `text.format`) and lists, which are replaced whole.
    public mutating func merge(
        template other: JSONObject, console: JSONObject, extraBody: JSONObject, library: JSONObject = [:]
    ) {
        template = Self.merged(template, other)
        for (key, value) in console { self.console[key] = value }
        for (key, value) in library { self.library[key] = value }
        self.extraBody = Self.merged(self.extraBody, extraBody)
    }

    static func merged(_ base: JSONObject, _ over: JSONObject) -> JSONObject {
        var result = base
        for (key, value) in over {
            if case .object(let new) = value, case .object(let old)? = result[key], new["type"] == nil,
                old["type"] == nil
            {
                result[key] = .object(merged(old, new))
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// Every leaf of the settings as `key path → value` (lists and tagged mappings are leaves), in order:
    /// the template, then `console.*`, then `library.*`, then `extra_body.*`.
    public var leaves: [(key: String, value: JSONValue)] {
        func walk(_ object: JSONObject, _ prefix: String, into result: inout [(key: String, value: JSONValue)]) {
            for (key, value) in object {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if case .object(let child) = value, child["type"] == nil, !child.isEmpty {
                    walk(child, path, into: &result)
                } else {
                    result.append((path, value))
                }
            }
        }
        var result: [(key: String, value: JSONValue)] = []
        walk(template, "", into: &result)
        walk(console, "console", into: &result)
        walk(library, "library", into: &result)
        walk(extraBody, "extra_body", into: &result)
        return result
    }
}
