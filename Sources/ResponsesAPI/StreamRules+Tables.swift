/// What OpenAI's streams hold, read from its recorded streams and its OpenAPI spec (`ResponseStreamEvent`,
/// 58 members, and the SDK's models): each event type it sends, with the fields every recorded event of that
/// type carried (besides `type` and `sequence_number`). Optional fields (`logprobs` on a delta, `annotation`,
/// `obfuscation`, an image's `size`...) and `name` on `response.function_call_arguments.done` (the SDK
/// declares it; none of OpenAI's recorded events carries it) are left out.
extension StreamRules {
    /// Each event type OpenAI sends, and the fields it always has.
    public static let requiredFields: [String: [String]] = {
        var table: [String: [String]] = [:]
        let response = ["response"]
        for type in [
            "response.created", "response.queued", "response.in_progress", "response.completed",
            "response.incomplete", "response.failed",
        ] {
            table[type] = response
        }
        let item = ["item_id", "output_index"]
        for tool in ["code_interpreter_call", "file_search_call", "web_search_call", "image_generation_call"] {
            for state in ["in_progress", "completed"] { table["response.\(tool).\(state)"] = item }
        }
        table["response.code_interpreter_call.interpreting"] = item
        table["response.file_search_call.searching"] = item
        table["response.web_search_call.searching"] = item
        table["response.image_generation_call.generating"] = item
        table["response.image_generation_call.partial_image"] = item + ["partial_image_b64", "partial_image_index"]
        for state in ["in_progress", "completed", "failed"] {
            table["response.mcp_call.\(state)"] = item
            table["response.mcp_list_tools.\(state)"] = item
        }
        let part = ["item_id", "output_index", "content_index"]
        table["response.output_item.added"] = ["output_index", "item"]
        table["response.output_item.done"] = ["output_index", "item"]
        table["response.content_part.added"] = part + ["part"]
        table["response.content_part.done"] = part + ["part"]
        table["response.output_text.delta"] = part + ["delta"]
        table["response.output_text.done"] = part + ["text"]
        table["response.output_text.annotation.added"] = part + ["annotation_index"]
        table["response.refusal.delta"] = part + ["delta"]
        table["response.refusal.done"] = part + ["refusal"]
        let summary = ["item_id", "output_index", "summary_index"]
        table["response.reasoning_summary_part.added"] = summary + ["part"]
        table["response.reasoning_summary_part.done"] = summary + ["part"]
        table["response.reasoning_summary_text.delta"] = summary + ["delta"]
        table["response.reasoning_summary_text.done"] = summary + ["text"]
        table["response.reasoning_text.delta"] = part + ["delta"]
        table["response.reasoning_text.done"] = part + ["text"]
        for tool in ["function_call_arguments", "mcp_call_arguments"] {
            table["response.\(tool).delta"] = item + ["delta"]
            table["response.\(tool).done"] = item + ["arguments"]
        }
        table["response.code_interpreter_call_code.delta"] = item + ["delta"]
        table["response.code_interpreter_call_code.done"] = item + ["code"]
        table["response.custom_tool_call_input.delta"] = item + ["delta"]
        table["response.custom_tool_call_input.done"] = item + ["input"]
        table["response.apply_patch_call_operation_diff.delta"] = item + ["delta"]
        table["response.apply_patch_call_operation_diff.done"] = item + ["diff"]
        let command = ["output_index", "command_index"]
        table["response.shell_call_command.added"] = command + ["command"]
        table["response.shell_call_command.delta"] = command + ["delta"]
        table["response.shell_call_command.done"] = command + ["command"]
        table["response.shell_call_output_content.delta"] = command + ["item_id", "delta"]
        table["response.shell_call_output_content.done"] = command + ["item_id", "output"]
        table["response.audio.delta"] = ["delta"]
        table["response.audio.done"] = []
        table["response.audio.transcript.delta"] = ["delta"]
        table["response.audio.transcript.done"] = []
        // Flat in the spec, nested under `error` on the wire: `checkFields` asks for a message in either.
        table["error"] = []
        return table
    }()

    /// The lifecycle events, which carry the whole response.
    static let lifecycleTypes: Set<String> = [
        "response.created", "response.queued", "response.in_progress", "response.completed",
        "response.incomplete", "response.failed",
    ]

    /// Events inside a content part of a message (opened by `response.content_part.added`).
    static let partScopedTypes: Set<String> = [
        "response.output_text.delta", "response.output_text.done", "response.output_text.annotation.added",
        "response.refusal.delta", "response.refusal.done",
    ]

    /// The fields of the response `response.completed` carries, and of each of its output items.
    static let completedResponseFields = ["id", "object", "created_at", "status", "model", "output", "usage"]
    static let outputItemFields = ["type", "id"]
    static let messageFields = ["role", "content"]
}
