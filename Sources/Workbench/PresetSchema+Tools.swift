import Foundation
import ResponsesAPI

/// The `tools` a preset may list, each type with its options, and `tool_choice`.
extension PresetSchema {
    static let toolFilter = ObjectSpec([("tool_names", .list(.text)), ("read_only", .boolean)])

    static let webSearchFields: [(name: String, spec: ValueSpec)] = [
        ("search_context_size", .choice(["low", "medium", "high"])),
        (
            "user_location",
            .object(
                ObjectSpec([
                    ("type", .choice(["approximate"])), ("country", .text), ("region", .text), ("city", .text),
                    ("timezone", .text),
                ]))
        ),
    ]

    static let webSearch = ObjectSpec(
        webSearchFields + [
            ("filters", .object(ObjectSpec([("allowed_domains", .list(.text))]))), ("external_web_access", .boolean),
        ])

    static let tools = TaggedSpec(
        noun: "tool",
        [
            (
                "file_search",
                ObjectSpec(
                    [
                        ("vector_store_ids", .list(.text)), ("max_num_results", .integer(minimum: 1, maximum: 50)),
                        (
                            "ranking_options",
                            .object(
                                ObjectSpec([
                                    ("ranker", .choice(["auto", "default-2024-11-15"])),
                                    ("score_threshold", .number(0...1)),
                                    ("hybrid_search", .json),
                                ]))
                        ),
                        ("filters", .json),
                    ],
                    required: ["vector_store_ids"])
            ),
            ("web_search", webSearch),
            ("web_search_2025_08_26", webSearch),
            ("web_search_preview", ObjectSpec(webSearchFields)),
            ("web_search_preview_2025_03_11", ObjectSpec(webSearchFields)),
            (
                "code_interpreter",
                ObjectSpec(
                    [
                        (
                            "container",
                            .shapes(
                                scalar: .text, list: nil,
                                mapping: .object(
                                    ObjectSpec(
                                        [
                                            ("type", .choice(["auto"])), ("file_ids", .list(.text, maxCount: 50)),
                                            ("memory_limit", .choice(["1g", "4g", "16g", "64g"])),
                                        ],
                                        required: ["type"])))
                        )
                    ],
                    required: ["container"])
            ),
            (
                "image_generation",
                ObjectSpec([
                    ("model", .text), ("size", .text), ("quality", .choice(["low", "medium", "high", "auto"])),
                    ("output_format", .choice(["png", "webp", "jpeg"])),
                    ("background", .choice(["transparent", "opaque", "auto"])),
                    ("partial_images", .integer(minimum: 0, maximum: 3)),
                    ("output_compression", .integer(minimum: 0, maximum: 100)),
                    ("moderation", .choice(["auto", "low"])), ("input_fidelity", .choice(["high", "low"])),
                    ("input_image_mask", .json),
                ])
            ),
            (
                "mcp",
                ObjectSpec(
                    [
                        ("server_label", .text), ("server_url", .text), ("connector_id", .text),
                        ("server_description", .text),
                        ("headers", .map(.text)), ("authorization", .text),
                        (
                            "require_approval",
                            .shapes(
                                scalar: .choice(["always", "never"]), list: nil,
                                mapping: .object(
                                    ObjectSpec([
                                        ("always", .object(toolFilter)), ("never", .object(toolFilter)),
                                    ])))
                        ),
                        ("allowed_tools", .shapes(scalar: nil, list: .list(.text), mapping: .object(toolFilter))),
                    ],
                    required: ["server_label"],
                    check: { tool in
                        var issues: [ObjectIssue] = []
                        switch (tool["server_url"], tool["connector_id"]) {
                        case (nil, nil):
                            issues.append(ObjectIssue(nil, "an mcp tool needs 'server_url' or 'connector_id'"))
                        case (_?, _?):
                            issues.append(ObjectIssue("connector_id", "give 'server_url' or 'connector_id', not both"))
                        default: break
                        }
                        if let url = tool["server_url"]?.stringValue,
                            URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) != true
                        {
                            issues.append(ObjectIssue("server_url", "'\(url)' is not an http(s) URL"))
                        }
                        for (name, value) in tool["headers"]?.objectValue ?? [:] {
                            if let problem = EnvironmentTemplate.literalProblem(value.stringValue ?? "") {
                                issues.append(ObjectIssue("headers.\(name)", problem))
                            }
                        }
                        if let value = tool["authorization"]?.stringValue,
                            let problem = EnvironmentTemplate.literalProblem(value)
                        {
                            issues.append(ObjectIssue("authorization", problem))
                        }
                        return issues
                    })
            ),
            (
                "function",
                ObjectSpec(
                    [
                        ("name", .text), ("description", .text), ("parameters", .json), ("parameters_file", .text),
                        ("strict", .boolean),
                        (
                            "handler",
                            .object(
                                ObjectSpec(
                                    [
                                        ("command", .shapes(scalar: .text, list: .list(.text), mapping: nil)),
                                        ("timeout_seconds", .integer(minimum: 1, maximum: 3600)), ("trusted", .boolean),
                                        ("working_directory", .text),
                                    ],
                                    required: ["command"]))
                        ),
                    ],
                    required: ["name"],
                    check: { tool in
                        var issues = nameIssues(tool["name"]?.stringValue, key: "name")
                        if tool["parameters"] != nil, tool["parameters_file"] != nil {
                            issues.append(
                                ObjectIssue("parameters_file", "give 'parameters' or 'parameters_file', not both"))
                        }
                        if let parameters = tool["parameters"], parameters.objectValue == nil {
                            issues.append(
                                ObjectIssue("parameters", "a JSON Schema is a mapping, not \(parameters.compactString)")
                            )
                        }
                        if case .array(let words)? = tool["handler"]?["command"], words.isEmpty {
                            issues.append(ObjectIssue("handler.command", "the command is empty"))
                        }
                        return issues
                    })
            ),
        ])

    static let toolChoices = TaggedSpec(
        noun: "tool_choice",
        [
            ("function", ObjectSpec([("name", .text)], required: ["name"])),
            ("custom", ObjectSpec([("name", .text)], required: ["name"])),
            ("mcp", ObjectSpec([("server_label", .text), ("name", .text)], required: ["server_label"])),
            (
                "allowed_tools",
                ObjectSpec(
                    [("mode", .choice(["auto", "required"])), ("tools", .list(.json))], required: ["mode", "tools"])
            ),
            ("file_search", ObjectSpec([])), ("web_search_preview", ObjectSpec([])),
            ("web_search_preview_2025_03_11", ObjectSpec([])),
            ("code_interpreter", ObjectSpec([])), ("image_generation", ObjectSpec([])),
        ])
}
