import Foundation
import Inspector
import ResponsesAPI

/// Text and JSON views of the inspector store for `inspect list` and `inspect show`.
public struct InspectorPresenter: Sendable {
    public init() {}

    public func listJSON(_ rows: [ExchangeSummary]) -> String {
        JSONValue.array(rows.map(\.json)).prettyPrinted() + "\n"
    }

    public func listText(_ rows: [ExchangeSummary]) -> String {
        guard !rows.isEmpty else { return "No exchanges recorded yet.\n" }
        let header = ["ID", "STARTED", "STATE", "HTTP", "MODEL", "TTFT", "TOTAL", "IN/OUT", "EVENTS", "REQUEST"]
        var table = [header]
        for row in rows {
            table.append([
                String(row.id), Self.localTime(row.startedAt), row.state, row.status.map(String.init) ?? "-",
                row.model ?? "-", row.ttftMs.map(Self.milliseconds) ?? "-", row.durationMs.map(Self.milliseconds) ?? "-",
                "\(row.inputTokens.map(String.init) ?? "-")/\(row.outputTokens.map(String.init) ?? "-")",
                String(row.eventCount), "\(row.method) \(Self.path(of: row.url))",
            ])
        }
        return Self.render(table)
    }

    public func showText(_ detail: ExchangeDetail) -> String {
        let s = detail.summary
        var lines: [String] = []
        lines.append("Exchange \(s.id)  \(s.method) \(s.url)")
        lines.append("  started   \(InspectorStore.timestamp(s.startedAt))")
        lines.append("  state     \(s.state)\(s.status.map { "  HTTP \($0)" } ?? "")\(s.streamed ? "  (stream)" : "")")
        if let model = s.model { lines.append("  model     \(model)") }
        if let id = s.responseId { lines.append("  response  \(id)") }
        if let id = s.requestId { lines.append("  request   \(id)") }
        if let session = s.session { lines.append("  session   \(session)") }
        if let preset = s.preset { lines.append("  preset    \(preset)") }
        let timings = [
            detail.ttfbMs.map { "first byte \(Self.milliseconds($0))" },
            s.ttftMs.map { "first text \(Self.milliseconds($0))" },
            s.durationMs.map { "total \(Self.milliseconds($0))" },
        ].compactMap { $0 }
        if !timings.isEmpty { lines.append("  timings   \(timings.joined(separator: ", "))") }
        if s.inputTokens != nil || s.outputTokens != nil {
            lines.append(
                "  usage     input \(s.inputTokens ?? 0) (cached \(detail.cachedTokens ?? 0)), output \(s.outputTokens ?? 0) "
                    + "(reasoning \(detail.reasoningTokens ?? 0)), total \(detail.totalTokens ?? 0)")
        }
        if let error = s.error { lines.append("  error     \(error)") }
        lines.append("")
        lines.append("Request headers")
        for (name, value) in detail.requestHeaders { lines.append("  \(name): \(value)") }
        lines.append("Request body")
        lines.append(Self.indent(Self.pretty(detail.requestBody)))
        if !detail.responseHeaders.isEmpty {
            lines.append("Response headers")
            for (name, value) in detail.responseHeaders { lines.append("  \(name): \(value)") }
        }
        if let body = detail.responseBody, !body.isEmpty {
            lines.append("Response body")
            lines.append(Self.indent(Self.pretty(body)))
        }
        if !detail.events.isEmpty {
            lines.append("Events (\(detail.events.count))")
            for event in detail.events {
                let offset = String(format: "%9.1f ms", event.offsetMs)
                let data = String(decoding: event.data.prefix(160), as: UTF8.self)
                    .replacingOccurrences(of: "\n", with: "\\n")
                lines.append("  #\(event.index) \(offset)  \(event.type)  \(data)\(event.data.count > 160 ? "…" : "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func pretty(_ bytes: [UInt8]) -> String {
        if let json = try? JSONValue.parse(bytes) { return json.prettyPrinted() }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    static func milliseconds(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.2fs", value / 1000) : String(format: "%.0fms", value)
    }

    static func path(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return components.path + (components.query.map { "?\($0)" } ?? "")
    }

    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    static func render(_ table: [[String]]) -> String {
        let widths = table[0].indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
