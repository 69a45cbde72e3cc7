import Foundation
import Inspector
import ResponsesAPI

/// Text and JSON views of the inspector store for `inspect list` and `inspect show`.
public struct InspectorPresenter: Sendable {
    init() {}

    func listJSON(_ rows: [ExchangeSummary]) -> String {
        JSONValue.array(rows.map(\.json)).prettyPrinted() + "\n"
    }

    func listText(_ rows: [ExchangeSummary]) -> String {
        guard !rows.isEmpty else { return "No exchanges recorded yet.\n" }
        // Exchanges the proxy recorded say which client sent them, in a column shown only when there are some.
        let proxied = rows.contains { $0.source == "proxy" }
        // So do the users of a proxy with a tokens file, before the client.
        let users = rows.contains { $0.user != nil }
        let header = [
            "ID", "STARTED", "STATE", "HTTP", "MODEL", "TTFT", "TOTAL", "IN/OUT", "COST", "EVENTS", "REQUEST",
        ]
        var table = [header + (users ? ["USER"] : []) + (proxied ? ["CLIENT"] : [])]
        for row in rows {
            var line: [String] = [
                String(row.id), Self.localTime(row.startedAt), row.state, row.status.map(String.init) ?? "-",
                row.model ?? "-", row.ttftMs.map(Self.milliseconds) ?? "-",
                row.durationMs.map(Self.milliseconds) ?? "-",
                "\(row.inputTokens.map(String.init) ?? "-")/\(row.outputTokens.map(String.init) ?? "-")",
                row.costUsd.map { String(format: "$%.4f", $0) } ?? "-", String(row.eventCount),
                "\(row.method) \(Self.path(of: row.url))",
            ]
            if users { line.append(row.user ?? "-") }
            if proxied {
                line.append(row.source == "proxy" ? "proxy: " + String((row.client ?? "?").prefix(32)) : "console")
            }
            table.append(line)
        }
        return Self.render(table)
    }

    /// Which parts `showText` prints; all of them when none is chosen.
    public struct Parts: Sendable {
        var request, response, events, headers: Bool
        public init(request: Bool = false, response: Bool = false, events: Bool = false, headers: Bool = false) {
            self.request = request
            self.response = response
            self.events = events
            self.headers = headers
        }
        var all: Bool { !request && !response && !events && !headers }
    }

    /// Only the chosen parts, plainly (no summary) when some are chosen; `raw` prints bodies and event data
    /// exactly as stored.
    func showText(_ detail: ExchangeDetail, parts: Parts, raw: Bool) -> String {
        if parts.all && !raw { return showText(detail) }
        var out = ""
        let body: ([UInt8]) -> String = { raw ? String(decoding: $0, as: UTF8.self) : Self.pretty($0) }
        if parts.headers || parts.all {
            out += "Request headers\n" + detail.requestHeaders.map { "  \($0.0): \($0.1)\n" }.joined()
            out += "Response headers\n" + detail.responseHeaders.map { "  \($0.0): \($0.1)\n" }.joined()
        }
        if parts.request || parts.all { out += body(detail.requestBody) + "\n" }
        if parts.response || parts.all {
            if let responseBody = detail.responseBody, !responseBody.isEmpty {
                out += body(responseBody) + "\n"
            } else if detail.summary.streamed {
                out += (raw ? detail.responseJSON.compactString : detail.responseJSON.prettyPrinted()) + "\n"
            }
        }
        if parts.events || parts.all {
            let width = Self.labelWidth(detail.events)
            for event in detail.events {
                let data = String(decoding: event.data, as: UTF8.self)
                out +=
                    raw
                    ? "\(event.offsetMs)\t\(event.type)\t\(data)\n"
                    : "\(Self.eventHead(event, width: width))  \(data)\n"
            }
        }
        return out
    }

    func statsText(_ stats: ExchangeStats, by grouping: String) -> String {
        guard !stats.groups.isEmpty else { return "No finished exchanges recorded yet.\n" }
        var table = [
            [
                grouping.uppercased(), "REQUESTS", "ERRORS", "IN", "CACHED", "OUT", "COST", "P50", "P95", "TTFT P50",
                "TTFT P95",
            ]
        ]
        for group in stats.groups {
            table.append([
                group.key, String(group.requests), String(format: "%.0f%%", group.errorRate * 100),
                String(group.inputTokens), group.cacheHitRate.map { String(format: "%.0f%%", $0 * 100) } ?? "-",
                String(group.outputTokens),
                group.costUSD.map { String(format: "$%.4f", $0) } ?? "-",
                group.p50DurationMs.map(Self.milliseconds) ?? "-", group.p95DurationMs.map(Self.milliseconds) ?? "-",
                group.p50TTFTMs.map(Self.milliseconds) ?? "-", group.p95TTFTMs.map(Self.milliseconds) ?? "-",
            ])
        }
        return Self.render(table)
    }

    /// The differences of two exchanges' request bodies and responses.
    func diff(_ a: ExchangeDetail, _ b: ExchangeDetail, json: Bool) -> String {
        let requests = JSONDiff(a.requestJSON, b.requestJSON)
        let responses = JSONDiff(a.responseJSON, b.responseJSON)
        if json {
            func encode(_ diff: JSONDiff) -> JSONValue {
                .array(
                    diff.changes.map { change in
                        switch change {
                        case .added(let path, let value): ["op": "added", "path": .string(path), "to": value]
                        case .removed(let path, let value): ["op": "removed", "path": .string(path), "from": value]
                        case .changed(let path, let from, let to):
                            ["op": "changed", "path": .string(path), "from": from, "to": to]
                        }
                    })
            }
            let value: JSONValue = [
                "a": .integer(Int(a.summary.id)), "b": .integer(Int(b.summary.id)),
                "request": encode(requests), "response": encode(responses),
            ]
            return value.prettyPrinted() + "\n"
        }
        var lines = ["Request (\(a.summary.id) → \(b.summary.id))"]
        lines += requests.changes.isEmpty ? ["  (same)"] : requests.lines().map { "  " + $0 }
        lines.append("Response")
        lines += responses.changes.isEmpty ? ["  (same)"] : responses.lines().map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    func showText(_ detail: ExchangeDetail) -> String {
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
        if let cost = s.costUsd { lines.append(String(format: "  cost      $%.6f (estimated)", cost)) }
        if s.attempt > 0 { lines.append("  attempt   retry \(s.attempt)") }
        if let replayOf = detail.replayOf { lines.append("  replays   exchange \(replayOf)") }
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
            let width = Self.labelWidth(detail.events)
            for event in detail.events {
                let data = String(decoding: event.data.prefix(160), as: UTF8.self)
                    .replacingOccurrences(of: "\n", with: "\\n")
                lines.append("  \(Self.eventHead(event, width: width))  \(data)\(event.data.count > 160 ? "…" : "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The width of the widest `#N` label, so the offsets stay in one column past #9, #99, ...
    static func labelWidth(_ events: [StoredEvent]) -> Int {
        "#\(events.lazy.map(\.index).max() ?? 0)".count
    }

    /// `#N  offset ms  type`, the label padded to `width`.
    static func eventHead(_ event: StoredEvent, width: Int) -> String {
        let label = "#\(event.index)"
        return label + String(repeating: " ", count: max(0, width - label.count))
            + String(format: " %9.1f ms", event.offsetMs) + "  " + event.type
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
