import Foundation
import Inspector
import ResponsesAPI

/// Building the report from the stored exchanges, one at a time (oldest first), then the parts that need
/// them all: the timeline's scale and the totals by day and by model.
extension InspectReport {
    /// Output items that are a tool at work: their span, from `output_item.added` to `output_item.done`, is
    /// drawn on the exchange's waterfall.
    static let toolItems: Set<String> = [
        "function_call", "custom_tool_call", "mcp_call", "mcp_list_tools", "web_search_call", "file_search_call",
        "code_interpreter_call", "image_generation_call", "computer_call", "local_shell_call", "shell_call",
    ]
    /// A request body longer than this is cut in the report (the inspector keeps it whole).
    static let requestLimit = 20_000

    struct Builder {
        var report: Values
        var rows: [Values] = []
        var models = Set<String>()
        var states = Set<String>()
        var failed = 0
        var tokens = 0
        var starts: [(id: Int64, start: Date, duration: Double, state: String, started: String, durationText: String)] =
            []
        var tokensByDay: [String: Double] = [:]
        var costByDay: [String: Double] = [:]
        var tokensByModel: [String: Double] = [:]
        var costByModel: [String: Double] = [:]
        var cost = 0.0
        var priced = false

        init(store: String, range: String, now: Date) {
            report = [
                "title": "openresponses inspector report", "generated": InspectorStore.timestamp(now), "store": store,
                "range": range,
            ]
        }

        mutating func add(_ detail: ExchangeDetail) {
            let summary = detail.summary
            let started = InspectorStore.timestamp(summary.startedAt)
            let model = summary.model ?? "–"
            let exchangeTokens = (summary.inputTokens ?? 0) + (summary.outputTokens ?? 0)
            let day = String(started.prefix(10))
            tokensByDay[day, default: 0] += Double(exchangeTokens)
            tokensByModel[model, default: 0] += Double(exchangeTokens)
            if let value = summary.costUsd {
                costByDay[day, default: 0] += value
                costByModel[model, default: 0] += value
                cost += value
                priced = true
            }
            if summary.state == "failed" { failed += 1 }
            tokens += exchangeTokens
            models.insert(model)
            states.insert(summary.state)
            var request = detail.requestBody.isEmpty ? "(no body)" : detail.requestJSON.prettyPrinted()
            if request == "null" { request = String(decoding: detail.requestBody, as: UTF8.self) }
            if request.count > InspectReport.requestLimit {
                request =
                    String(request.prefix(InspectReport.requestLimit))
                    + "\n… (cut here; inspect show \(summary.id) --request has it all)"
            }
            let status = summary.status.map(String.init) ?? ""
            let fields = [
                model, summary.state, status, summary.requestId, summary.responseId, summary.errorMessage,
                summary.preset,
            ]
            var row: Values = [
                "id": summary.id, "started": started, "method": summary.method,
                "path": URL(string: summary.url)?.path ?? summary.url,
                "state": summary.state, "status": status, "model": model,
                "duration": InspectReport.milliseconds(summary.durationMs),
                "ttft": InspectReport.milliseconds(summary.ttftMs),
                "inputTokens": summary.inputTokens.map(String.init) ?? "–",
                "outputTokens": summary.outputTokens.map(String.init) ?? "–",
                "cost": InspectReport.dollars(summary.costUsd),
                "requestId": summary.requestId ?? "–", "eventCount": summary.eventCount,
                "search": fields.compactMap { $0 }.joined(separator: " ").lowercased(), "request": request,
                "waterfall": InspectReport.waterfall(detail),
            ]
            // Absent, not empty: the template's {{#error}} sections show only what is there.
            row["responseId"] = summary.responseId
            row["preset"] = summary.preset
            row["error"] = summary.errorMessage
            rows.append(row)
            starts.append(
                (
                    summary.id, summary.startedAt, summary.durationMs ?? 0, summary.state, started,
                    InspectReport.milliseconds(summary.durationMs)
                ))
        }

        /// The report, with what needed every exchange.
        mutating func finish() -> (values: Values, count: Int) {
            report["count"] = rows.count
            report["failedCount"] = failed
            report["totalTokens"] = tokens
            report["totalCost"] = priced ? InspectReport.dollars(cost) : "–"
            report["models"] = models.sorted()
            report["states"] = states.sorted()
            report["exchanges"] = rows
            var timeline: Values = [
                "width": 960, "height": 40, "labelY": 38, "from": "", "to": "", "items": [Values](),
            ]
            if let first = starts.map(\.start).min(),
                let last = starts.map({ $0.start.addingTimeInterval($0.duration / 1000) }).max()
            {
                let span = max(last.timeIntervalSince(first), 0.001)
                let width = Double(960 - 4)
                timeline["from"] = InspectorStore.timestamp(first)
                timeline["to"] = InspectorStore.timestamp(last)
                timeline["items"] = starts.enumerated().map { index, item -> Values in
                    [
                        "id": item.id, "x": Int(item.start.timeIntervalSince(first) / span * width) + 2,
                        "y": 2 + (index % 3) * 10,
                        "width": max(2, Int(item.duration / 1000 / span * width)), "state": item.state,
                        "started": item.started,
                        "duration": item.durationText,
                    ]
                }
            }
            report["timeline"] = timeline
            let sortedDays = { (values: [String: Double]) in
                values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            }
            let byValue = { (values: [String: Double]) in
                values.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
            }
            let count = { (value: Double) in String(Int(value)) }
            report["charts"] = [
                InspectReport.chart("Tokens by day", sortedDays(tokensByDay), format: count),
                InspectReport.chart("Cost by day", sortedDays(costByDay), format: InspectReport.dollars),
                InspectReport.chart("Tokens by model", byValue(tokensByModel), format: count),
                InspectReport.chart("Cost by model", byValue(costByModel), format: InspectReport.dollars),
            ]
            return (report, rows.count)
        }
    }

    /// An exchange's events by arrival time: first byte, first text and the end as marks, each tool's work as
    /// a span.
    static func waterfall(_ detail: ExchangeDetail) -> Values {
        let width = 600
        var height = 30
        let end = detail.summary.durationMs ?? detail.events.last?.offsetMs ?? 0
        guard end > 0 else { return ["width": width, "height": height, "marks": [Values](), "spans": [Values]()] }
        let scale = Double(width - 40) / end
        func x(_ ms: Double) -> Int { 20 + Int((ms * scale).rounded()) }
        var marks: [(String, Double)] = []
        if let ttfb = detail.ttfbMs { marks.append(("first byte", ttfb)) }
        if let ttft = detail.summary.ttftMs { marks.append(("first text", ttft)) }
        marks.append(("end", end))
        var spans: [Values] = []
        var open: [String: (label: String, start: Double)] = [:]
        for event in detail.events
        where event.type == "response.output_item.added" || event.type == "response.output_item.done" {
            let item = (try? JSONValue.parse(event.data))?["item"]
            guard let type = item?["type"]?.stringValue, toolItems.contains(type), let id = item?["id"]?.stringValue
            else { continue }
            if event.type == "response.output_item.added" {
                open[id] = (item?["name"]?.stringValue ?? type, event.offsetMs)
            } else if let started = open.removeValue(forKey: id) {
                let row = spans.count % 3
                spans.append([
                    "x": x(started.start), "y": 30 + row * 20, "textY": 48 + row * 20,
                    "width": max(2, x(event.offsetMs) - x(started.start)),
                    "label": started.label, "from": milliseconds(started.start), "to": milliseconds(event.offsetMs),
                ])
            }
        }
        if !spans.isEmpty { height = 30 + min(spans.count, 3) * 20 + 10 }
        return [
            "width": width, "height": height, "spans": spans,
            "marks": marks.map { label, at -> Values in ["x": x(at), "label": label, "at": milliseconds(at)] },
        ]
    }
}
