extension ResponseStreamEvent {
    /// What an event says, typed. One case per event type, except the hosted tools' status events
    /// (`response.file_search_call.searching` and the like), which share `.toolCallStatus`.
    public enum Kind: Sendable, Hashable {
        // Lifecycle: a snapshot of the response.
        case responseCreated(Response)
        case responseQueued(Response)
        case responseInProgress(Response)
        case responseCompleted(Response)
        case responseIncomplete(Response)
        case responseFailed(Response)

        // Output items and content parts.
        case outputItemAdded(ItemEvent)
        case outputItemDone(ItemEvent)
        case contentPartAdded(PartEvent)
        case contentPartDone(PartEvent)

        // Message text.
        case outputTextDelta(TextDelta)
        case outputTextDone(TextDone)
        case outputTextAnnotationAdded(AnnotationAdded)
        case refusalDelta(TextDelta)
        case refusalDone(TextDone)

        // Reasoning.
        case reasoningSummaryPartAdded(PartEvent)
        case reasoningSummaryPartDone(PartEvent)
        case reasoningSummaryTextDelta(TextDelta)
        case reasoningSummaryTextDone(TextDone)
        case reasoningTextDelta(TextDelta)
        case reasoningTextDone(TextDone)

        // Arguments, inputs and code of tool calls, as they stream.
        case functionCallArgumentsDelta(TextDelta)
        /// `name` is absent in every recorded event although the spec requires it: take it from the item.
        case functionCallArgumentsDone(TextDone)
        case customToolCallInputDelta(TextDelta)
        case customToolCallInputDone(TextDone)
        case mcpCallArgumentsDelta(TextDelta)
        case mcpCallArgumentsDone(TextDone)
        case codeInterpreterCallCodeDelta(TextDelta)
        case codeInterpreterCallCodeDone(TextDone)

        // Hosted tools.
        case toolCallStatus(ToolCallStatus)
        case imageGenerationPartialImage(PartialImage)
        case shellCallCommandAdded(ShellCommand)
        case shellCallCommandDelta(ShellCommand)
        case shellCallCommandDone(ShellCommand)
        case shellCallOutputContentDelta(ShellOutput)
        case shellCallOutputContentDone(ShellOutput)

        // Audio.
        case audioDelta(String)
        case audioDone
        case audioTranscriptDelta(String)
        case audioTranscriptDone

        /// An `error` event, nested (`{"error":{...}}`, as OpenAI sends it) or flat (as the spec writes it).
        case error(StreamErrorPayload)
        /// `data: [DONE]`, sent by some compatible servers after the terminal event.
        case done
        /// An event type this client does not know; read `type` and `json`.
        case unknown
    }

    /// `response.output_item.added` / `.done`.
    public struct ItemEvent: Sendable, Hashable {
        public var outputIndex: Int
        public var item: OutputItem
    }

    /// `response.content_part.*` (`partIndex` is `content_index`) and `response.reasoning_summary_part.*`
    /// (`partIndex` is `summary_index`).
    public struct PartEvent: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var partIndex: Int
        public var part: ContentPart
    }

    /// A text delta: `delta` for the item at `outputIndex`; `partIndex` is `content_index` or
    /// `summary_index`, whichever the event carries (0 when neither).
    public struct TextDelta: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var partIndex: Int
        public var delta: String
    }

    /// The final text of a part, or the final arguments / input / code of a tool call.
    public struct TextDone: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var partIndex: Int
        public var text: String
        /// `name` of `response.function_call_arguments.done`, when the server sends it.
        public var name: String?
    }

    /// `response.output_text.annotation.added`.
    public struct AnnotationAdded: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var contentIndex: Int
        public var annotationIndex: Int
        public var annotation: Annotation
    }

    /// `response.<tool>_call.<phase>` for file_search, web_search, code_interpreter, image_generation,
    /// mcp_call and mcp_list_tools.
    public struct ToolCallStatus: Sendable, Hashable {
        public enum Tool: String, Sendable, Hashable, CaseIterable {
            case fileSearch = "file_search_call"
            case webSearch = "web_search_call"
            case codeInterpreter = "code_interpreter_call"
            case imageGeneration = "image_generation_call"
            case mcpCall = "mcp_call"
            case mcpListTools = "mcp_list_tools"
        }

        public var tool: Tool
        /// `in_progress`, `searching`, `interpreting`, `generating`, `completed` or `failed`.
        public var phase: String
        public var itemID: String
        public var outputIndex: Int
    }

    /// `response.image_generation_call.partial_image`: a base64 image (often megabytes).
    public struct PartialImage: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var index: Int
        public var base64: String
        public var outputFormat: String?
    }

    /// `response.shell_call_command.*`: `text` is the command (added, done) or a piece of it (delta).
    public struct ShellCommand: Sendable, Hashable {
        public var outputIndex: Int
        public var commandIndex: Int
        public var text: String
    }

    /// `response.shell_call_output_content.*`: the output pieces as the server sent them.
    public struct ShellOutput: Sendable, Hashable {
        public var itemID: String
        public var outputIndex: Int
        public var commandIndex: Int
        public var content: JSONValue
    }

    static func kind(of type: String, fields: EventFields) -> Kind {
        let itemID = fields[.itemID]?.stringValue ?? ""
        let outputIndex = fields[.outputIndex]?.intValue ?? 0
        let partIndex = fields[.contentIndex]?.intValue ?? fields[.summaryIndex]?.intValue ?? 0
        func delta() -> TextDelta {
            TextDelta(
                itemID: itemID, outputIndex: outputIndex, partIndex: partIndex, delta: fields[.delta]?.stringValue ?? ""
            )
        }
        func done(_ field: EventFields.Key) -> TextDone {
            TextDone(
                itemID: itemID, outputIndex: outputIndex, partIndex: partIndex, text: fields[field]?.stringValue ?? "",
                name: fields[.name]?.stringValue)
        }
        func response() -> Response { Response(json: fields[.response] ?? .null) }
        func item() -> ItemEvent { ItemEvent(outputIndex: outputIndex, item: OutputItem(json: fields[.item] ?? .null)) }
        func part() -> PartEvent {
            PartEvent(
                itemID: itemID, outputIndex: outputIndex, partIndex: partIndex,
                part: ContentPart(json: fields[.part] ?? .null))
        }
        func shellCommand(_ field: EventFields.Key) -> ShellCommand {
            ShellCommand(
                outputIndex: outputIndex, commandIndex: fields[.commandIndex]?.intValue ?? 0,
                text: fields[field]?.stringValue ?? "")
        }
        func shellOutput(_ field: EventFields.Key) -> ShellOutput {
            ShellOutput(
                itemID: itemID, outputIndex: outputIndex, commandIndex: fields[.commandIndex]?.intValue ?? 0,
                content: fields[field] ?? .null)
        }

        switch type {
        case "response.output_text.delta": return .outputTextDelta(delta())
        case "response.created": return .responseCreated(response())
        case "response.queued": return .responseQueued(response())
        case "response.in_progress": return .responseInProgress(response())
        case "response.completed": return .responseCompleted(response())
        case "response.incomplete": return .responseIncomplete(response())
        case "response.failed": return .responseFailed(response())
        case "response.output_item.added": return .outputItemAdded(item())
        case "response.output_item.done": return .outputItemDone(item())
        case "response.content_part.added": return .contentPartAdded(part())
        case "response.content_part.done": return .contentPartDone(part())
        case "response.output_text.done": return .outputTextDone(done(.text))
        case "response.output_text.annotation.added":
            return .outputTextAnnotationAdded(
                AnnotationAdded(
                    itemID: itemID, outputIndex: outputIndex, contentIndex: fields[.contentIndex]?.intValue ?? 0,
                    annotationIndex: fields[.annotationIndex]?.intValue ?? 0,
                    annotation: Annotation(json: fields[.annotation] ?? .null)))
        case "response.refusal.delta": return .refusalDelta(delta())
        case "response.refusal.done": return .refusalDone(done(.refusal))
        case "response.reasoning_summary_part.added": return .reasoningSummaryPartAdded(part())
        case "response.reasoning_summary_part.done": return .reasoningSummaryPartDone(part())
        case "response.reasoning_summary_text.delta": return .reasoningSummaryTextDelta(delta())
        case "response.reasoning_summary_text.done": return .reasoningSummaryTextDone(done(.text))
        case "response.reasoning_text.delta": return .reasoningTextDelta(delta())
        case "response.reasoning_text.done": return .reasoningTextDone(done(.text))
        case "response.function_call_arguments.delta": return .functionCallArgumentsDelta(delta())
        case "response.function_call_arguments.done": return .functionCallArgumentsDone(done(.arguments))
        case "response.custom_tool_call_input.delta": return .customToolCallInputDelta(delta())
        case "response.custom_tool_call_input.done": return .customToolCallInputDone(done(.input))
        case "response.mcp_call_arguments.delta": return .mcpCallArgumentsDelta(delta())
        case "response.mcp_call_arguments.done": return .mcpCallArgumentsDone(done(.arguments))
        case "response.code_interpreter_call_code.delta": return .codeInterpreterCallCodeDelta(delta())
        case "response.code_interpreter_call_code.done": return .codeInterpreterCallCodeDone(done(.code))
        case "response.image_generation_call.partial_image":
            return .imageGenerationPartialImage(
                PartialImage(
                    itemID: itemID, outputIndex: outputIndex, index: fields[.partialImageIndex]?.intValue ?? 0,
                    base64: fields[.partialImageBase64]?.stringValue ?? "",
                    outputFormat: fields[.outputFormat]?.stringValue))
        case "response.shell_call_command.added": return .shellCallCommandAdded(shellCommand(.command))
        case "response.shell_call_command.delta": return .shellCallCommandDelta(shellCommand(.delta))
        case "response.shell_call_command.done": return .shellCallCommandDone(shellCommand(.command))
        case "response.shell_call_output_content.delta": return .shellCallOutputContentDelta(shellOutput(.delta))
        case "response.shell_call_output_content.done": return .shellCallOutputContentDone(shellOutput(.output))
        case "response.audio.delta": return .audioDelta(fields[.delta]?.stringValue ?? "")
        case "response.audio.done": return .audioDone
        case "response.audio.transcript.delta": return .audioTranscriptDelta(fields[.delta]?.stringValue ?? "")
        case "response.audio.transcript.done": return .audioTranscriptDone
        case "error": return .error(StreamErrorPayload(fields: fields))
        default:
            // response.<tool>.<phase>
            if type.hasPrefix("response."), let dot = type.lastIndex(of: "."),
                dot > type.index(type.startIndex, offsetBy: 9)
            {
                let toolName = type[type.index(type.startIndex, offsetBy: 9)..<dot]
                let phase = String(type[type.index(after: dot)...])
                if let tool = ToolCallStatus.Tool(rawValue: String(toolName)), Self.toolPhases.contains(phase) {
                    return .toolCallStatus(
                        ToolCallStatus(tool: tool, phase: phase, itemID: itemID, outputIndex: outputIndex))
                }
            }
            return .unknown
        }
    }

    static let toolPhases: Set<String> = [
        "in_progress", "searching", "interpreting", "generating", "completed", "failed",
    ]
}
