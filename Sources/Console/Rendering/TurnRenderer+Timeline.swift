import Foundation
import ResponsesAPI
import Untrusted

extension TurnRenderer {
    /// One line for a finished tool call (nil for items that are not tool calls): what was searched, run
    /// or called, and what came back. A generated image is saved and its path shown.
    static func timelineLine(for item: OutputItem, savingImagesTo directory: URL?, saved: inout [String]) -> String? {
        switch item {
        case .webSearchCall(let call):
            var line = "[web search]"
            if let query = call.query { line += " \"\(clipped(query, 80))\"" }
            if let url = call.url { line += " \(call.actionType ?? "open") \(url)" }
            let sources = call.sources
            if !sources.isEmpty {
                let hosts = sources.prefix(4).map { URL(string: $0)?.host ?? $0 }
                line +=
                    " — \(sources.count) source\(sources.count == 1 ? "" : "s"): " + hosts.joined(separator: ", ")
                    + (sources.count > 4 ? ", …" : "")
            }
            return line + status(call.json)
        case .fileSearchCall(let call):
            var line = "[file search] " + call.queries.map { "\"\(clipped($0, 60))\"" }.joined(separator: ", ")
            let results = call.results
            if !results.isEmpty {
                let hits = results.prefix(3).map { hit in
                    (hit.json["attributes"]?["filename"]?.stringValue ?? hit.filename ?? hit.fileID ?? "?")
                        + (hit.score.map { String(format: " %.2f", $0) } ?? "")
                }
                line += " — \(results.count) hit\(results.count == 1 ? "" : "s"): " + hits.joined(separator: ", ")
            }
            return line + status(call.json)
        case .codeInterpreterCall(let call):
            var line = "[code interpreter]"
            if let code = call.code {
                let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
                line +=
                    " " + clipped(String(lines.first ?? ""), 80)
                    + (lines.count > 1 ? " (+\(lines.count - 1) lines)" : "")
            }
            let logs = call.logs.trimmingCharacters(in: .whitespacesAndNewlines)
            if !logs.isEmpty { line += " → " + clipped(logs, 100) }
            return line + status(call.json)
        case .imageGenerationCall(let call):
            var line = "[image]"
            if let base64 = call.result, let data = Data(base64Encoded: base64), let directory = directory {
                // The server's id and format are a name, never a path (`../../.bashrc` wrote in the home
                // folder): a safe last component, a known image format, and never over an existing file.
                let format = (call.outputFormat ?? "png").lowercased()
                let name = SafeFileName(
                    stem: call.json["id"]?.stringValue ?? "",
                    extension: ServerNamedFile.imageFormats.contains(format) ? format : "bin",
                    fallback: "image-" + UUID().uuidString.prefix(8).lowercased())
                do {
                    let url = try ServerNamedFile.create(data, in: directory, name: name)
                    saved.append(url.path)
                    line += " saved to \(url.path)"
                } catch {
                    line += " could not be saved: \(error.localizedDescription)"
                }
            }
            if let prompt = call.revisedPrompt { line += " — \"\(clipped(prompt, 80))\"" }
            return line + status(call.json)
        case .mcpListTools(let list):
            if let error = list.error { return "[mcp \(list.serverLabel)] listing tools failed: \(error)" }
            return "[mcp \(list.serverLabel)] \(list.toolNames.count) tools: "
                + clipped(list.toolNames.joined(separator: ", "), 100)
        case .mcpCall(let call):
            var line = "[mcp \(call.serverLabel)] \(call.name)(\(clipped(call.arguments, 80)))"
            if let error = call.error {
                line += " failed: \(clipped(error, 100))"
            } else if let output = call.output {
                line += " → " + clipped(output, 100)
            }
            return line
        case .functionCall(let call):
            return "[function] \(call.name)(\(clipped(call.arguments, 100)))"
        case .customToolCall(let call):
            return "[tool] \(call.name): \(clipped(call.input, 100))"
        case .mcpApprovalRequest(let request):
            return "[mcp \(request.serverLabel)] asks to call \(request.name)(\(clipped(request.arguments, 80)))"
        case .computerCall, .localShellCall, .shellCall, .applyPatchCall:
            return "[\(item.type.replacingOccurrences(of: "_", with: " "))]" + status(item.json)
        default:
            return nil
        }
    }

    private static func status(_ json: JSONValue) -> String {
        guard let status = json["status"]?.stringValue, status != "completed" else { return "" }
        return " (\(status))"
    }
}
