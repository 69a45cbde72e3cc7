import Foundation
import ResponsesAPI

/// The shape of a preset file and of the config file: the create-response fields the console supports
/// (each registry setting with the registry's own rule), tools with their options, console options, and
/// `extra_body` for fields newer than this build.
public enum PresetSchema {
    /// A preset: `version`, `name`, `description`, `provider` (the server it is meant for), then the request
    /// template and `console`.
    public static let preset = ObjectSpec(
        [("version", .integer(minimum: 1, maximum: nil)), ("name", .text), ("description", .text), ("provider", .text)]
            + requestFields + [
                ("console", .object(console)), ("extra_body", .map(.json)),
                ("mcp_servers", .map(.object(mcpServer))), ("mcp", .list(.text)),
                ("variables", .map(.json)), ("input_template", .text),
            ])

    /// The config file: like a preset without name and description, plus `preset` (the preset a session
    /// starts from when no `--preset` is given), `provider` (the server when neither a flag nor the preset
    /// names one), `providers`, `library` (the document library's options) and `aliases` (model aliases,
    /// `ModelAliases`).
    public static let config = ObjectSpec(
        [("version", .integer(minimum: 1, maximum: nil)), ("preset", .text), ("provider", .text)] + requestFields + [
            ("console", .object(console)), ("library", .object(library)), ("extra_body", .map(.json)),
            ("aliases", .map(.text)),
            ("providers", .map(.object(provider))),
            ("mcp_servers", .map(.object(mcpServer))), ("mcp", .list(.text)),
            ("inspector", .object(inspector)),
        ])

    /// `inspector:` in the config file: `url`, a team's PostgreSQL (Docs/team.md). A password is not written
    /// here (the file is not kept private): it comes from OPENRESPONSES_INSPECTOR_PASSWORD.
    static let inspector = ObjectSpec(
        [("url", .text)],
        check: { inspector in
            guard let url = inspector["url"]?.stringValue else { return [] }
            // Trimmed as the address is read, so that a leading space does not hide a password from the check.
            let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
            if let components = URLComponents(string: trimmed), components.password != nil {
                return [
                    ObjectIssue(
                        "url",
                        "a password is not kept in config.yaml: remove it from the URL and set OPENRESPONSES_INSPECTOR_PASSWORD"
                    )
                ]
            }
            return []
        })

    /// The keys of a preset that are not request fields.
    public static let documentKeys: Set<String> = [
        "version", "name", "description", "console", "library", "extra_body", "preset", "providers", "provider",
        "mcp_servers", "mcp", "variables", "input_template", "aliases", "inspector",
    ]

    /// One named provider under `providers:` (Docs/providers.md). Header values name environment variables,
    /// as MCP headers do: no secret is written in the file.
    static let provider = ObjectSpec(
        [
            ("base_url", .text), ("key_env", .text), ("organization", .text), ("project", .text),
            ("headers", .map(.text)),
            ("model", .text), ("timeout", .number(0.1...86_400)), ("connect_timeout", .number(0.1...600)),
        ],
        required: ["base_url"],
        check: { provider in
            var issues: [ObjectIssue] = []
            for (name, value) in provider["headers"]?.objectValue ?? [:] {
                if let text = value.stringValue, let problem = EnvironmentTemplate.literalProblem(text) {
                    issues.append(ObjectIssue("headers.\(name)", problem))
                }
                // A header's name is an HTTP token (RFC 9110); the key has its own place.
                let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
                if name.isEmpty || !name.unicodeScalars.allSatisfy({ $0.isASCII && token.contains($0) }) {
                    issues.append(
                        ObjectIssue("headers.\(name)", "not a header name: letters, digits and !#$%&'*+-.^_`|~ only"))
                } else if name.lowercased() == "authorization" {
                    issues.append(
                        ObjectIssue(
                            "headers.\(name)",
                            "the key is sent as Authorization already: name it with key_env or in credentials.yaml"))
                }
            }
            if let url = provider["base_url"]?.stringValue, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                issues.append(
                    ObjectIssue("base_url", "'\(url)' is not an http(s) URL (example: http://127.0.0.1:11434/v1)"))
            }
            return issues
        })

    /// One local MCP server under `mcp_servers:` (Docs/mcp.md): a program (`command`, `args`, `env`, `cwd`) or a
    /// URL (`url`, `headers` naming environment variables); `trusted` for the server or per tool under `tools`.
    static let mcpServer = ObjectSpec(
        [
            ("command", .shapes(scalar: .text, list: .list(.text), mapping: nil)), ("args", .list(.text)),
            ("env", .map(.text)), ("cwd", .text), ("url", .text), ("headers", .map(.text)),
            ("trusted", .boolean), ("enabled", .boolean), ("timeout", .number(0.1...3600)),
            ("tools", .map(.object(ObjectSpec([("trusted", .boolean)])))),
        ],
        check: { server in
            var issues: [ObjectIssue] = []
            if (server["command"] == nil) == (server["url"] == nil) {
                issues.append(ObjectIssue("command", "give either command (a program started here) or url, not both"))
            }
            if let url = server["url"]?.stringValue, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                issues.append(ObjectIssue("url", "'\(url)' is not an http(s) URL"))
            }
            for (name, value) in server["headers"]?.objectValue ?? [:] {
                if let text = value.stringValue, let problem = EnvironmentTemplate.literalProblem(text) {
                    issues.append(ObjectIssue("headers.\(name)", problem))
                }
            }
            return issues
        })

    static let console = ObjectSpec([
        ("stream", .setting("console.stream")), ("show_reasoning", .setting("console.show_reasoning")),
        ("show_usage", .setting("console.show_usage")),
        ("inline_attachments_kb", .setting("console.inline_attachments_kb")),
        ("markdown", .setting("console.markdown")), ("max_input_tokens", .setting("console.max_input_tokens")),
    ])

    static let library = ObjectSpec([
        ("chunk_size", .setting("library.chunk_size")), ("chunk_overlap", .setting("library.chunk_overlap")),
        ("ocr", .setting("library.ocr")), ("passages", .setting("library.passages")),
        ("embedder", .setting("library.embedder")), ("model_dir", .setting("library.model_dir")),
        ("search_mode", .setting("library.search_mode")),
        ("max_zip_member_mb", .setting("library.max_zip_member_mb")), ("max_text_mb", .setting("library.max_text_mb")),
        ("max_chunks", .setting("library.max_chunks")), ("max_pdf_pages", .setting("library.max_pdf_pages")),
        ("ocr_page_seconds", .setting("library.ocr_page_seconds")),
    ])

    static let requestFields: [(name: String, spec: ValueSpec)] = [
        ("model", .setting("model")),
        ("instructions", .setting("instructions")),
        ("temperature", .setting("temperature")),
        ("top_p", .setting("top_p")),
        ("max_output_tokens", .setting("max_output_tokens")),
        ("max_tool_calls", .setting("max_tool_calls")),
        (
            "reasoning",
            .object(ObjectSpec([("effort", .setting("reasoning.effort")), ("summary", .setting("reasoning.summary"))]))
        ),
        (
            "text",
            .object(
                ObjectSpec([
                    (
                        "format",
                        .shapes(scalar: .choice(["text", "json_object"]), list: nil, mapping: .tagged(formats))
                    ),
                    ("verbosity", .setting("text.verbosity")),
                ]))
        ),
        ("tools", .list(.tagged(tools))),
        ("tool_choice", .shapes(scalar: .setting("tool_choice"), list: nil, mapping: .tagged(toolChoices))),
        ("parallel_tool_calls", .setting("parallel_tool_calls")),
        ("truncation", .setting("truncation")),
        ("store", .setting("store")),
        ("background", .setting("background")),
        ("include", .setting("include")),
        ("metadata", .map(.text, maxCount: 16)),
        ("service_tier", .setting("service_tier")),
        ("prompt_cache_key", .setting("prompt_cache_key")),
        ("prompt_cache_retention", .setting("prompt_cache_retention")),
        (
            "prompt_cache_options",
            .object(
                ObjectSpec([
                    ("mode", .setting("prompt_cache_options.mode")), ("ttl", .setting("prompt_cache_options.ttl")),
                ]))
        ),
        ("top_logprobs", .setting("top_logprobs")),
        (
            "stream_options",
            .object(ObjectSpec([("include_obfuscation", .setting("stream_options.include_obfuscation"))]))
        ),
        (
            "moderation",
            .object(
                ObjectSpec(
                    [
                        ("model", .setting("moderation.model")),
                        (
                            "policy",
                            .object(
                                ObjectSpec([
                                    (
                                        "input",
                                        .object(
                                            ObjectSpec(
                                                [("mode", .setting("moderation.policy.input"))], required: ["mode"]))
                                    ),
                                    (
                                        "output",
                                        .object(
                                            ObjectSpec(
                                                [("mode", .setting("moderation.policy.output"))], required: ["mode"]))
                                    ),
                                ]))
                        ),
                    ], required: ["model"]))
        ),
        (
            "context_management",
            .list(
                .tagged(
                    TaggedSpec(
                        noun: "context management entry",
                        [
                            (
                                "compaction",
                                ObjectSpec([("compact_threshold", .setting("context_management.compact_threshold"))])
                            )
                        ])))
        ),
        ("safety_identifier", .setting("safety_identifier")),
        (
            "prompt",
            .object(ObjectSpec([("id", .text), ("version", .text), ("variables", .map(.text))], required: ["id"]))
        ),
        ("conversation", .setting("conversation")),
    ]

    // MARK: text.format

    static let formats = TaggedSpec(
        noun: "format",
        [
            ("text", ObjectSpec([])),
            ("json_object", ObjectSpec([])),
            (
                "json_schema",
                ObjectSpec(
                    [
                        ("name", .text), ("description", .text), ("schema", .json), ("schema_file", .text),
                        ("strict", .boolean),
                    ],
                    required: ["name"],
                    check: { format in
                        var issues = nameIssues(format["name"]?.stringValue, key: "name")
                        switch (format["schema"], format["schema_file"]) {
                        case (nil, nil):
                            issues.append(
                                ObjectIssue(
                                    nil, "a json_schema format needs 'schema' (inline) or 'schema_file' (a path)"))
                        case (_?, _?):
                            issues.append(ObjectIssue("schema_file", "give 'schema' or 'schema_file', not both"))
                        case (let schema?, nil) where schema.objectValue == nil:
                            issues.append(
                                ObjectIssue("schema", "a JSON Schema is a mapping, not \(schema.compactString)"))
                        default: break
                        }
                        return issues
                    })
            ),
        ])

    /// Function and format names: letters, digits, `_` and `-`, at most 64.
    static func nameIssues(_ name: String?, key: String) -> [ObjectIssue] {
        guard let name else { return [] }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        guard !allowed || name.isEmpty || name.count > 64 else { return [] }
        return [ObjectIssue(key, "'\(name)' is not a valid name (1 to 64 letters, digits, _ or -)")]
    }

    /// Every dotted path through mappings of `spec` (for "did you mean" across levels).
    public static func knownPaths(_ spec: ObjectSpec, prefix: String = "") -> [String] {
        spec.fields.flatMap { field -> [String] in
            let path = prefix.isEmpty ? field.name : "\(prefix).\(field.name)"
            if case .object(let child) = field.spec { return [path] + knownPaths(child, prefix: path) }
            return [path]
        }
    }
}
