import Foundation
import MCP
import ResponsesAPI
import Workbench

/// A tool's result as the function call's output: its text parts joined; images as `input_image` parts (data
/// URLs) beside the text, which the next request carries to a model that takes images; embedded resources as
/// their text, or a line naming what was not passed on. What a server sends is capped (`maximumTextBytes`).
enum MCPToolOutput {
    static let maximumTextBytes = 256 << 10
    static let maximumImages = 8

    static func outcome(_ result: CallTool.Result, duration: Duration) -> ToolCallOutcome {
        var texts: [String] = []
        var images: [JSONValue] = []
        for content in result.content {
            switch content {
            case .text(let text, _, _):
                texts.append(text)
            case .image(let data, let mimeType, _, _):
                if images.count < maximumImages, mimeType.hasPrefix("image/"), !mimeType.contains(";") {
                    images.append(["type": "input_image", "image_url": .string("data:\(mimeType);base64,\(data)")])
                    texts.append("[image \(mimeType), \(data.utf8.count * 3 / 4) bytes]")
                } else {
                    texts.append("[image \(mimeType): not passed on]")
                }
            case .audio(let data, let mimeType, _, _):
                texts.append("[audio \(mimeType), \(data.utf8.count * 3 / 4) bytes: not passed on]")
            case .resource(let resource, _, _):
                if let text = resource.text {
                    texts.append(text)
                } else {
                    let bytes = (resource.blob?.utf8.count ?? 0) * 3 / 4
                    texts.append(
                        "[resource \(resource.uri) (\(resource.mimeType ?? "binary"), \(bytes) bytes): not passed on]")
                }
            case .resourceLink(let uri, let name, _, let description, let mimeType, _):
                texts.append(
                    "[resource link \(uri): \(name)\(description.map { " — \($0)" } ?? "")\(mimeType.map { " (\($0))" } ?? "")]"
                )
            }
        }
        let text = capped(texts.joined(separator: "\n"))
        let failed = result.isError == true
        let output: JSONValue =
            images.isEmpty || failed
            ? .string(failed ? "error: \(text)" : text)
            : .array([["type": "input_text", "text": .string(text)]] + images)
        return ToolCallOutcome(output: output, ending: failed ? .failed(text) : .completed(text), duration: duration)
    }

    /// A tool's description, as the model reads it, at the most.
    static let maximumDescriptionBytes = 4096

    /// `text` cut at `bytes` (at a scalar's start), with a note of how much was left out.
    static func capped(_ text: String, bytes: Int = maximumTextBytes) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: bytes)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        let kept = String(text[..<end])
        return kept + "\n[cut: \(utf8.count - kept.utf8.count) more bytes]"
    }

    /// A tool's function definition: its schema passed through, strict where strict mode can take it.
    static func definition(name: String, tool: Tool, server: String) -> JSONValue {
        var schema = json(tool.inputSchema) ?? ["type": "object", "properties": [:]]
        if schema["type"] == nil, case .object(var object) = schema {
            object["type"] = "object"
            schema = .object(object)
        }
        let description = capped(tool.description ?? tool.title ?? "", bytes: maximumDescriptionBytes)
        return [
            "type": "function", "name": .string(name),
            "description": .string("[\(server)] \(description)"), "parameters": schema,
            "strict": .bool(isStrictCompatible(schema)),
        ]
    }

    /// Strict mode needs every object to list all its properties as required and to forbid others.
    static func isStrictCompatible(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return false }
        if object["type"]?.stringValue == "object" || object["properties"] != nil {
            let properties = object["properties"]?.objectValue ?? [:]
            let required = Set((object["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            guard object["additionalProperties"] == .bool(false), Set(properties.keys) == required else { return false }
            if !properties.allSatisfy({ isStrictCompatible($0.value) }) { return false }
        }
        if let items = object["items"], !isStrictCompatible(items) { return false }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let list = object[key]?.arrayValue, !list.allSatisfy(isStrictCompatible) { return false }
        }
        return object["oneOf"] == nil && object["allOf"] == nil
    }

    /// An SDK value as this console's JSON.
    static func json(_ value: Value) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONValue.parse(Array(data))
    }

    /// A call's arguments (JSON text) as the SDK's: nil when they are not a JSON object.
    static func arguments(_ text: String) -> [String: Value]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [:] }
        return try? JSONDecoder().decode([String: Value].self, from: Data(trimmed.utf8))
    }
}
