import Foundation
import Inspector
import Markdown
import ResponsesAPI

/// The Markdown form: a header with the model, preset and provider, then each turn: what was asked, the
/// tool calls and their outputs, the answer with `[^n]` footnote markers where its citations point, and
/// a usage line.
extension ConversationExport {
    var markdown: String {
        var out = "# Conversation \(session.prefix(8))\n\n"
        if let first = turns.first {
            let models = Self.distinct(turns.compactMap(\.exchange.model))
            let presets = Self.distinct(turns.compactMap(\.exchange.preset))
            var facts = ["Model: " + (models.isEmpty ? "unknown" : models.joined(separator: ", "))]
            if !presets.isEmpty { facts.append("Preset: " + presets.joined(separator: ", ")) }
            if let provider = first.exchange.provider { facts.append("Provider: " + provider) }
            facts.append("Started: " + Self.time(first.exchange.startedAt))
            out += facts.map { "- \($0)\n" }.joined() + "\n"
        } else {
            out += "No turns recorded.\n"
        }
        var footnotes: [String] = []
        for (index, turn) in turns.enumerated() {
            if turn.compacted > 0 {
                out +=
                    "*(the conversation so far was compacted into \(turn.compacted) item\(turn.compacted == 1 ? "" : "s"))*\n\n"
            }
            for item in Self.newItems(turn.request, first: index == 0, compacted: turn.compacted) {
                switch item["type"]?.stringValue ?? (item["role"] != nil ? "message" : "") {
                case "message" where item["role"]?.stringValue == "user":
                    out += "## You\n\n" + CodeBlocks.closingFences(Self.text(ofMessage: item)) + "\n\n"
                case "function_call_output":
                    let output = item["output"].map { $0.stringValue ?? $0.compactString } ?? ""
                    out += "- → output:\n\n" + Self.fenced(output) + "\n\n"
                default: break
                }
            }
            var answered = false
            for item in Response(json: turn.response).output {
                switch item {
                case .message(let message):
                    if !answered {
                        out += "## Assistant\n\n"
                        answered = true
                    }
                    for part in message.content {
                        switch part {
                        case .outputText(let text):
                            out += CodeBlocks.closingFences(Self.cited(text, footnotes: &footnotes)) + "\n\n"
                        case .refusal(let refusal): out += "> Refused: " + refusal + "\n\n"
                        default: break
                        }
                    }
                case .reasoning:
                    continue
                default:
                    var saved: [String] = []
                    if let line = TurnRenderer.timelineLine(for: item, savingImagesTo: nil, saved: &saved) {
                        out += "- Tool: `" + line + "`" + mcpNote(item) + "\n\n"
                    }
                }
            }
            if turn.exchange.state != "completed" {
                // On one line: a line break would end the emphasis (an error page's body has many).
                let error =
                    turn.exchange.errorMessage.map {
                        ": " + $0.split(whereSeparator: \.isNewline).joined(separator: " ")
                    } ?? ""
                out += "*(\(turn.exchange.state)\(error))*\n\n"
            }
            out += "*" + Self.usage(turn.exchange) + "*\n\n"
        }
        if !footnotes.isEmpty { out += footnotes.enumerated().map { "[^\($0.offset + 1)]: \($0.element)\n" }.joined() }
        return out
    }

    /// " — MCP server S, tool T: completed in N ms" for a function call a local MCP server ran.
    func mcpNote(_ item: OutputItem) -> String {
        guard case .functionCall(let call) = item, let kept = toolCalls[call.callID] else { return "" }
        return
            " — MCP server \(kept.server), tool \(kept.tool): \(kept.status) in \(InspectorPresenter.milliseconds(kept.durationMs))"
    }

    /// `text` whole in a fenced block, its fence longer than any run of backticks in it.
    static func fenced(_ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + "\n" + text + (text.hasSuffix("\n") ? "" : "\n") + fence
    }

    /// The text with a `[^n]` marker after each cited span (numbered across the conversation, one number
    /// per source).
    static func cited(_ part: ContentPart.OutputText, footnotes: inout [String]) -> String {
        var scalars = Array(part.text.unicodeScalars)
        var marks: [(position: Int, number: Int)] = []
        for annotation in part.annotations {
            let label: String
            let position: Int?
            switch annotation {
            case .urlCitation(let url, let title, _, let end):
                label = title.map { "[\($0)](\(url))" } ?? "<\(url)>"
                position = end
            case .fileCitation(let fileID, let filename, let index):
                label = filename.map { "\($0) (\(fileID))" } ?? fileID
                position = index
            case .containerFileCitation(let containerID, let fileID, let filename, _, let end):
                label =
                    (filename ?? fileID)
                    + " (code interpreter: `openresponses containers download \(containerID) \(fileID)`)"
                position = end
            case .filePath(let fileID, let index):
                label = "file \(fileID)"
                position = index
            case .unknown:
                continue
            }
            let number =
                (footnotes.firstIndex(of: label)
                    ?? {
                        footnotes.append(label)
                        return footnotes.count - 1
                    }()) + 1
            marks.append((min(max(position ?? scalars.count, 0), scalars.count), number))
        }
        for mark in marks.sorted(by: { ($0.position, $0.number) > ($1.position, $1.number) }) {
            scalars.insert(contentsOf: "[^\(mark.number)]".unicodeScalars, at: mark.position)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    static func usage(_ exchange: ExchangeSummary) -> String {
        var parts = ["\(exchange.model ?? "unknown model")"]
        if let input = exchange.inputTokens { parts.append("input \(input)") }
        if let output = exchange.outputTokens { parts.append("output \(output) tokens") }
        if let cost = exchange.costUsd { parts.append("~" + SessionSpending.dollars(cost)) }
        return parts.joined(separator: " · ")
    }

    static func distinct(_ values: [String]) -> [String] {
        var seen: [String] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }

    static func time(_ date: Date) -> String {
        InspectorStore.timestamp(date).replacingOccurrences(of: "T", with: " ")
    }
}
