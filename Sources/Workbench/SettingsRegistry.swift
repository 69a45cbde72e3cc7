import ResponsesAPI

/// Every setting the console knows, in one table.
public enum SettingsRegistry {
    public static let all: [SettingDescriptor] = [
        .init(
            "model", .string, api: "model", help: "The model (gpt-5.1, gpt-4.1-mini, openai/echo on a local server...)."
        ),
        .init("instructions", .string, api: "instructions", help: "The system (developer) message for every turn."),
        .init(
            "temperature", .number(0...2), api: "temperature", help: "Sampling temperature; reasoning models reject it."
        ),
        .init("top_p", .number(0...1), api: "top_p", help: "Nucleus sampling; reasoning models reject it."),
        .init(
            "max_output_tokens", .integer(minimum: 16, maximum: nil), api: "max_output_tokens",
            help: "Upper bound on output tokens, reasoning included."),
        .init(
            "max_tool_calls", .integer(minimum: 1, maximum: nil), api: "max_tool_calls",
            help: "Upper bound on built-in tool calls in one response."),
        .init(
            "reasoning.effort", .choice(["none", "minimal", "low", "medium", "high", "xhigh", "max"]),
            api: "reasoning.effort",
            help: "How hard a reasoning model thinks."),
        .init(
            "reasoning.summary", .choice(["auto", "concise", "detailed"]), api: "reasoning.summary",
            help: "Ask for a summary of the reasoning."),
        .init(
            "text.verbosity", .choice(["low", "medium", "high"]), api: "text.verbosity",
            help: "How long the answer runs."),
        .init(
            "text.format", .choice(["text", "json_object"]), api: "text.format.type",
            help: "Plain text or a JSON object (a JSON Schema format comes from a preset)."),
        .init(
            "file_search.vector_store_ids", .stringList, api: "tools[type=file_search].vector_store_ids",
            help: "Vector stores for file_search (adds the tool when the preset has none; /unset removes it)."),
        .init(
            "tool_choice", .choice(["auto", "none", "required"]), api: "tool_choice",
            help: "Whether the model must, may or must not call tools."),
        .init(
            "parallel_tool_calls", .boolean, api: "parallel_tool_calls",
            help: "Let the model call several tools at once."),
        .init(
            "truncation", .choice(["auto", "disabled"]), api: "truncation",
            help: "Drop old context when it overflows, or fail."),
        .init(
            "store", .boolean, api: "store",
            help: "Keep the response on the server (needed for previous_response_id chaining)."),
        .init(
            "background", .boolean, api: "background",
            help: "Run the response in the background (poll or resume the stream)."),
        .init(
            "include", .choiceList(includable), api: "include",
            help:
                "Extra output to include: reasoning.encrypted_content, file_search_call.results, message.output_text.logprobs..."
        ),
        .init(
            "service_tier", .choice(["auto", "default", "flex", "priority", "scale"]), api: "service_tier",
            help: "Processing tier."),
        .init(
            "prompt_cache_key", .string, api: "prompt_cache_key", help: "A key that groups requests for prompt caching."
        ),
        .init(
            "prompt_cache_retention", .choice(["in_memory", "24h"]), api: "prompt_cache_retention",
            help: "How long cached prompt prefixes are kept: in_memory (the default) or 24h (extended caching)."),
        .init(
            "prompt_cache_options.mode", .choice(["implicit", "explicit"]), api: "prompt_cache_options.mode",
            help:
                "implicit: one breakpoint chosen by OpenAI plus yours; explicit: only the prompt_cache_breakpoint ones you mark."
        ),
        .init(
            "prompt_cache_options.ttl", .choice(["30m"]), api: "prompt_cache_options.ttl",
            help: "How long each breakpoint's cache entry lives (30m, the only value the API takes today)."),
        .init(
            "top_logprobs", .integer(minimum: 0, maximum: 20), api: "top_logprobs",
            help: "Alternatives to return per output token, 0-20 (with include=message.output_text.logprobs)."),
        .init(
            "stream_options.include_obfuscation", .boolean, api: "stream_options.include_obfuscation",
            help:
                "false drops the random obfuscation padding from streamed deltas (less bandwidth on a trusted network)."
        ),
        .init(
            "context_management.compact_threshold", .integer(minimum: 1000, maximum: nil),
            api: "context_management[type=compaction].compact_threshold",
            help:
                "Automatic compaction: the server compacts the context once it passes this many tokens (1000 or more)."),
        .init(
            "moderation.model", .string, api: "moderation.model",
            help: "Run moderation on the input and output with this model (omni-moderation-latest)."),
        .init(
            "moderation.policy.input", .choice(["score", "block"]), api: "moderation.policy.input.mode",
            help: "What moderation does with the input: score it, or block it when flagged (needs moderation.model)."),
        .init(
            "moderation.policy.output", .choice(["score", "block"]), api: "moderation.policy.output.mode",
            help: "What moderation does with the output: score it, or block it when flagged (needs moderation.model)."),
        .init("safety_identifier", .string, api: "safety_identifier", help: "A stable, hashed id of the end user."),
        .init("conversation", .string, api: "conversation", help: "A Conversations API id the turns belong to."),
        .init("prompt.id", .string, api: "prompt.id", help: "A stored prompt template id."),
        .init("prompt.version", .string, api: "prompt.version", help: "The stored prompt's version."),
        .init(
            "prompt.variables.*", .string, api: "prompt.variables.*",
            help: "A variable of the stored prompt (prompt.variables.city=Paris)."),
        .init(
            "metadata.*", .string, api: "metadata.*",
            help: "A metadata pair stored with the response (metadata.project=demo)."),
        .init("console.stream", .boolean, help: "Stream answers as they arrive (false sends stream: false)."),
        .init("console.show_reasoning", .boolean, help: "Show reasoning summaries as they stream."),
        .init("console.show_usage", .boolean, help: "Show the usage line after each answer."),
        .init(
            "console.markdown", .boolean,
            help:
                "Render answers' Markdown on a terminal: headings, lists, tables, highlighted code (off: the raw text, wrapped)."
        ),
        .init(
            "console.inline_attachments_kb", .integer(minimum: 0, maximum: nil),
            help: "Attachments up to this size (KB) go inline as base64; bigger ones are uploaded first (default 8192)."
        ),
        .init(
            "console.max_input_tokens", .integer(minimum: 0, maximum: nil),
            help:
                "Piped text over this many tokens (estimated) is refused before sending (default: half the model's context window; 0: no limit)."
        ),
        .init(
            "library.chunk_size", .integer(minimum: 50, maximum: nil),
            help: "Characters per chunk when documents are added (default 1000); changes apply to documents added next."
        ),
        .init(
            "library.chunk_overlap", .integer(minimum: 0, maximum: nil),
            help: "Characters repeated from one chunk to the next (default 150, at most half the chunk size)."),
        .init("library.ocr", .boolean, help: "Read PDF pages without a text layer with tesseract (default true)."),
        .init(
            "library.passages", .integer(minimum: 1, maximum: 50),
            help: "Passages found for each question and given to the model or the extractive answer (default 5)."),
        .init(
            "library.embedder", .string,
            help:
                "What computes the library's vectors: minilm (built in, the default), openai:MODEL[/DIMENSIONS] (the server's /embeddings) or none."
        ),
        .init(
            "library.model_dir", .string,
            help: "Where all-MiniLM-L6-v2's files are (default: the data directory's models/all-MiniLM-L6-v2)."),
        .init(
            "library.search_mode", .choice(["hybrid", "keyword", "semantic"]),
            help:
                "How passages are ranked: hybrid (keywords and vectors fused, the default when there are vectors), keyword or semantic."
        ),
        .init(
            "library.max_zip_member_mb", .integer(minimum: 1, maximum: nil),
            help:
                "A cap: the inflated size of one ZIP member of a DOCX, in MB (default 256); past it the file is refused."
        ),
        .init(
            "library.max_text_mb", .integer(minimum: 1, maximum: nil),
            help: "A cap: the text extracted from one file, in MB of UTF-8 (default 32); past it the file is refused."),
        .init(
            "library.max_chunks", .integer(minimum: 1, maximum: nil),
            help: "A cap: the chunks made from one file (default 20000); past it the file is refused."),
        .init(
            "library.max_pdf_pages", .integer(minimum: 1, maximum: nil),
            help: "A cap: the pages of one PDF (default 2000), checked before any page is read."),
        .init(
            "library.ocr_page_seconds", .integer(minimum: 1, maximum: nil),
            help: "A cap: the seconds OCR may take on one page or image (default 60); the tool is stopped past it."),
    ]

    /// What `include` takes (the spec's `IncludeEnum`).
    public static let includable = [
        "file_search_call.results", "web_search_call.results", "web_search_call.action.sources",
        "message.input_image.image_url", "computer_call_output.output.image_url", "code_interpreter_call.outputs",
        "reasoning.encrypted_content", "message.output_text.logprobs",
    ]

    /// The descriptor for `key` (a `.*` key matches any name after its prefix).
    public static func descriptor(for key: String) -> SettingDescriptor? {
        if let exact = all.first(where: { $0.key == key }) { return exact }
        return all.first {
            $0.key.hasSuffix(".*") && key.hasPrefix(String($0.key.dropLast())) && key.count > $0.key.count - 1
        }
    }

    /// Parses `KEY=VALUE`; throws with the closest known key when KEY is unknown.
    public static func parseAssignment(_ text: String) throws(SettingError) -> (SettingDescriptor, String, JSONValue) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw SettingError("'\(text)' is not KEY=VALUE (for example reasoning.effort=high)")
        }
        let key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: equals)...])
        guard let descriptor = descriptor(for: key) else { throw unknown(key) }
        return (descriptor, key, try descriptor.parse(value))
    }

    public static func unknown(_ key: String) -> SettingError {
        SettingError(
            "unknown setting '\(key)'" + (suggestion(for: key).map { " (did you mean \($0)?)" } ?? "")
                + "; openresponses settings lists them all")
    }

    /// The known key closest to `key` by edit distance, when it is close enough to be a typo.
    public static func suggestion(for key: String) -> String? {
        closest(to: key, in: all.map(\.key).filter { !$0.hasSuffix(".*") })
    }

    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo (`NearestName`).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        NearestName.closest(to: word, in: candidates)
    }

    /// `Docs/settings.md`, generated from the table (a test keeps the file equal to this).
    public static func markdown() -> String {
        var lines = [
            "# Settings", "",
            "Generated from `SettingsRegistry` (`openresponses settings --markdown > Docs/settings.md`). Set them with",
            "`ask --set KEY=VALUE` (repeatable), `/set KEY VALUE` in the console, or in `config.yaml` and presets as",
            "nested keys (`library.*` only in `config.yaml`); a key ending in `.*` takes any name after its prefix.",
            "`library.*` are the document library's options: `library add` and `sync` take them as flags too.", "",
            "| key | values | request field | what it does |", "|---|---|---|---|",
        ]
        for setting in all {
            let field =
                setting.apiField.map { "`\($0)`" } ?? (setting.key.hasPrefix("library.") ? "(library)" : "(console)")
            lines.append("| `\(setting.key)` | \(setting.allowed) | \(field) | \(setting.help) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
