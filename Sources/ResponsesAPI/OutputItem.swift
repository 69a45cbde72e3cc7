/// One item of a response's `output` (and of `response.output_item.added` / `.done`). Each of the 28
/// item types of the API has a case with a typed view; an item of any other type is `.unknown`. Every
/// view keeps the whole item in `json`, so fields this client does not model are never lost.
public enum OutputItem: Sendable, Hashable {
    case message(Message)
    case reasoning(Reasoning)
    case functionCall(FunctionCall)
    case functionCallOutput(FunctionCallOutput)
    case customToolCall(CustomToolCall)
    case customToolCallOutput(Generic)
    case fileSearchCall(FileSearchCall)
    case webSearchCall(WebSearchCall)
    case codeInterpreterCall(CodeInterpreterCall)
    case imageGenerationCall(ImageGenerationCall)
    case mcpCall(MCPCall)
    case mcpListTools(MCPListTools)
    case mcpApprovalRequest(MCPApprovalRequest)
    case mcpApprovalResponse(MCPApprovalResponse)
    case computerCall(Generic)
    case computerCallOutput(Generic)
    case localShellCall(Generic)
    case localShellCallOutput(Generic)
    case shellCall(Generic)
    case shellCallOutput(Generic)
    case applyPatchCall(Generic)
    case applyPatchCallOutput(Generic)
    case compaction(Compaction)
    case toolSearchCall(Generic)
    case toolSearchOutput(Generic)
    case additionalTools(Generic)
    case program(Generic)
    case programOutput(Generic)
    /// An item type this client does not know.
    case unknown(Generic)

    /// Every output item type the API defines.
    public static let knownTypes: [String] = [
        "message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
        "file_search_call", "web_search_call", "code_interpreter_call", "image_generation_call", "mcp_call",
        "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "computer_call", "computer_call_output",
        "local_shell_call", "local_shell_call_output", "shell_call", "shell_call_output", "apply_patch_call",
        "apply_patch_call_output", "compaction", "tool_search_call", "tool_search_output", "additional_tools",
        "program", "program_output",
    ]

    public init(json: JSONValue) {
        let generic = Generic(json: json)
        switch json["type"]?.stringValue ?? "" {
        case "message": self = .message(Message(json: json))
        case "reasoning": self = .reasoning(Reasoning(json: json))
        case "function_call": self = .functionCall(FunctionCall(json: json))
        case "function_call_output": self = .functionCallOutput(FunctionCallOutput(json: json))
        case "custom_tool_call": self = .customToolCall(CustomToolCall(json: json))
        case "custom_tool_call_output": self = .customToolCallOutput(generic)
        case "file_search_call": self = .fileSearchCall(FileSearchCall(json: json))
        case "web_search_call": self = .webSearchCall(WebSearchCall(json: json))
        case "code_interpreter_call": self = .codeInterpreterCall(CodeInterpreterCall(json: json))
        case "image_generation_call": self = .imageGenerationCall(ImageGenerationCall(json: json))
        case "mcp_call": self = .mcpCall(MCPCall(json: json))
        case "mcp_list_tools": self = .mcpListTools(MCPListTools(json: json))
        case "mcp_approval_request": self = .mcpApprovalRequest(MCPApprovalRequest(json: json))
        case "mcp_approval_response": self = .mcpApprovalResponse(MCPApprovalResponse(json: json))
        case "computer_call": self = .computerCall(generic)
        case "computer_call_output": self = .computerCallOutput(generic)
        case "local_shell_call": self = .localShellCall(generic)
        case "local_shell_call_output": self = .localShellCallOutput(generic)
        case "shell_call": self = .shellCall(generic)
        case "shell_call_output": self = .shellCallOutput(generic)
        case "apply_patch_call": self = .applyPatchCall(generic)
        case "apply_patch_call_output": self = .applyPatchCallOutput(generic)
        case "compaction": self = .compaction(Compaction(json: json))
        case "tool_search_call": self = .toolSearchCall(generic)
        case "tool_search_output": self = .toolSearchOutput(generic)
        case "additional_tools": self = .additionalTools(generic)
        case "program": self = .program(generic)
        case "program_output": self = .programOutput(generic)
        default: self = .unknown(generic)
        }
    }

    /// The whole item as it arrived.
    public var json: JSONValue {
        switch self {
        case .message(let item): item.json
        case .reasoning(let item): item.json
        case .functionCall(let item): item.json
        case .functionCallOutput(let item): item.json
        case .customToolCall(let item): item.json
        case .fileSearchCall(let item): item.json
        case .webSearchCall(let item): item.json
        case .codeInterpreterCall(let item): item.json
        case .imageGenerationCall(let item): item.json
        case .mcpCall(let item): item.json
        case .mcpListTools(let item): item.json
        case .mcpApprovalRequest(let item): item.json
        case .mcpApprovalResponse(let item): item.json
        case .compaction(let item): item.json
        case .customToolCallOutput(let item), .computerCall(let item), .computerCallOutput(let item),
            .localShellCall(let item), .localShellCallOutput(let item), .shellCall(let item),
            .shellCallOutput(let item),
            .applyPatchCall(let item), .applyPatchCallOutput(let item), .toolSearchCall(let item),
            .toolSearchOutput(let item), .additionalTools(let item), .program(let item), .programOutput(let item),
            .unknown(let item):
            item.json
        }
    }

    public var type: String { json["type"]?.stringValue ?? "" }
    public var id: String? { json["id"]?.stringValue }
    /// `status` when the item has one (older recordings omit it).
    public var status: String? { json["status"]?.stringValue }

    /// An item whose fields this client reads from `json` as needed.
    public struct Generic: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var callID: String? { json["call_id"]?.stringValue }
    }

    /// An assistant message: `content` holds `output_text` and `refusal` parts.
    public struct Message: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var role: String? { json["role"]?.stringValue }
        /// `commentary` or `final_answer` on models that mark the phase.
        public var phase: String? { json["phase"]?.stringValue }
        public var content: [ContentPart] { (json["content"]?.arrayValue ?? []).map(ContentPart.init(json:)) }
        /// The text of every `output_text` part.
        public var text: String {
            content.reduce(into: "") { text, part in
                if case .outputText(let value) = part { text += value.text }
            }
        }
        public var refusal: String? {
            let parts = content.compactMap { part -> String? in
                if case .refusal(let text) = part { return text }
                return nil
            }
            return parts.isEmpty ? nil : parts.joined()
        }
    }

    /// A reasoning item: summary parts, raw reasoning text (some compatible servers), encrypted content.
    public struct Reasoning: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var summary: [String] { (json["summary"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue } }
        public var reasoningText: [String] {
            (json["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
        }
        public var encryptedContent: String? { json["encrypted_content"]?.stringValue }
    }

    /// A call of a function tool the request declared.
    public struct FunctionCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var name: String { json["name"]?.stringValue ?? "" }
        public var namespace: String? { json["namespace"]?.stringValue }
        public var callID: String { json["call_id"]?.stringValue ?? "" }
        public var arguments: String { json["arguments"]?.stringValue ?? "" }
    }

    /// The output of a function call, as sent back to the model (seen in input items and conversations).
    public struct FunctionCallOutput: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var callID: String { json["call_id"]?.stringValue ?? "" }
        /// The output when it is a string (it may also be a list of content parts: read `json`).
        public var output: String? { json["output"]?.stringValue }
    }

    /// A call of a custom (free-form input) tool.
    public struct CustomToolCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var name: String { json["name"]?.stringValue ?? "" }
        public var callID: String { json["call_id"]?.stringValue ?? "" }
        public var input: String { json["input"]?.stringValue ?? "" }
    }

    public struct FileSearchCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var queries: [String] { (json["queries"]?.arrayValue ?? []).compactMap(\.stringValue) }
        /// Present when the request asked for `file_search_call.results` in `include`.
        public var results: [FileSearchResult] { (json["results"]?.arrayValue ?? []).map(FileSearchResult.init(json:)) }
    }

    public struct FileSearchResult: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var fileID: String? { json["file_id"]?.stringValue }
        public var filename: String? { json["filename"]?.stringValue }
        public var score: Double? { json["score"]?.doubleValue }
        public var text: String? { json["text"]?.stringValue }
    }

    public struct WebSearchCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        /// `search`, `open_page` or `find` (`action.type`).
        public var actionType: String? { json["action"]?["type"]?.stringValue }
        /// The query of a `search` action (newer servers also send `queries`).
        public var query: String? { json["action"]?["query"]?.stringValue }
        public var url: String? { json["action"]?["url"]?.stringValue }
        /// Sources, when the request asked for `web_search_call.action.sources`.
        public var sources: [String] {
            (json["action"]?["sources"]?.arrayValue ?? []).compactMap { $0["url"]?.stringValue }
        }
    }

    public struct CodeInterpreterCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var code: String? { json["code"]?.stringValue }
        public var containerID: String? { json["container_id"]?.stringValue }
        /// Each output: `logs` (text) or `image` (url).
        public var outputs: [JSONValue] { json["outputs"]?.arrayValue ?? [] }
        public var logs: String {
            outputs.compactMap { $0["type"]?.stringValue == "logs" ? $0["logs"]?.stringValue : nil }.joined()
        }
    }

    public struct ImageGenerationCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        /// The image, base64-encoded.
        public var result: String? { json["result"]?.stringValue }
        public var revisedPrompt: String? { json["revised_prompt"]?.stringValue }
        public var outputFormat: String? { json["output_format"]?.stringValue }
    }

    public struct MCPCall: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var serverLabel: String { json["server_label"]?.stringValue ?? "" }
        public var name: String { json["name"]?.stringValue ?? "" }
        public var arguments: String { json["arguments"]?.stringValue ?? "" }
        public var output: String? { json["output"]?.stringValue }
        /// `error` may be a string or an object, depending on the server.
        public var error: String? { json["error"]?.stringValue ?? json["error"]?["message"]?.stringValue }
        public var approvalRequestID: String? { json["approval_request_id"]?.stringValue }
    }

    public struct MCPListTools: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var serverLabel: String { json["server_label"]?.stringValue ?? "" }
        public var toolNames: [String] { (json["tools"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } }
        public var error: String? { json["error"]?.stringValue }
    }

    public struct MCPApprovalRequest: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var serverLabel: String { json["server_label"]?.stringValue ?? "" }
        public var name: String { json["name"]?.stringValue ?? "" }
        public var arguments: String { json["arguments"]?.stringValue ?? "" }
    }

    public struct MCPApprovalResponse: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var approvalRequestID: String { json["approval_request_id"]?.stringValue ?? "" }
        public var approve: Bool { json["approve"]?.boolValue ?? false }
        public var reason: String? { json["reason"]?.stringValue }
    }

    /// The opaque result of `POST /responses/compact`, passed back as input.
    public struct Compaction: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var encryptedContent: String? { json["encrypted_content"]?.stringValue }
    }
}
