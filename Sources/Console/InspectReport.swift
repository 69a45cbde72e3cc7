import Foundation
import Inspector
import ResponsesAPI

/// What `inspect report` renders through `inspector/report.mustache`: the exchanges as rows, a timeline, tokens
/// and cost by day and by model as bar charts, and each exchange's request and event waterfall. Values only
/// (strings and numbers already formatted, SVG coordinates already computed): the template has no logic.
struct InspectReport {
    var title = "openresponses inspector report"
    var generated: String
    var store: String
    var range: String
    var count = 0
    var failedCount = 0
    var totalTokens = 0
    var totalCost = "–"
    var models: [String] = []
    var states: [String] = []
    var timeline = Timeline()
    var charts: [Chart] = []
    var exchanges: [Row] = []

    struct Row {
        var id: Int64
        var started: String
        var method: String
        var path: String
        var state: String
        var status: String
        var model: String
        var duration: String
        var ttft: String
        var inputTokens: String
        var outputTokens: String
        var cost: String
        var requestId: String
        var responseId: String?
        var preset: String?
        var error: String?
        var eventCount: Int
        var search: String
        var request: String
        var waterfall: Waterfall
    }

    struct Timeline {
        struct Item {
            var id: Int64, x: Int, y: Int, width: Int, state: String, started: String, duration: String
        }
        var width = 960, height = 40, labelY = 38
        var from = "", to = ""
        var items: [Item] = []
    }

    struct Chart {
        struct Bar {
            var x: Int, y: Int, width: Int, height: Int, labelX: Int, labelY: Int, label: String, short: String, value: String
        }
        var title: String
        var width = 420, height = 170
        var max = ""
        var bars: [Bar] = []
    }

    struct Waterfall {
        struct Mark { var x: Int, label: String, at: String }
        struct Span { var x: Int, y: Int, textY: Int, width: Int, label: String, from: String, to: String }
        var width = 600, height = 30
        var marks: [Mark] = []
        var spans: [Span] = []
    }

    /// Milliseconds as people read them.
    static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value < 1000 ? "\(Int(value.rounded())) ms" : String(format: "%.2f s", value / 1000)
    }

    static func dollars(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value < 0.01 ? String(format: "$%.4f", value) : String(format: "$%.2f", value)
    }

    /// A bar chart of `values` (label, value), `format` writing a value.
    static func chart(_ title: String, _ values: [(String, Double)], format: (Double) -> String) -> Chart {
        var chart = Chart(title: title)
        let top = values.map(\.1).max() ?? 0
        guard !values.isEmpty else {
            chart.max = "nothing to show (no exchange here has a price)"
            return chart
        }
        chart.max = format(top)
        let plot = Double(chart.height - 30)
        let slot = max(8, (chart.width - 10) / values.count)
        chart.width = max(chart.width, slot * values.count + 10)
        for (index, (label, value)) in values.enumerated() {
            let height = top > 0 ? Int((value / top * plot).rounded()) : 0
            let x = 5 + index * slot
            chart.bars.append(Chart.Bar(
                x: x, y: Int(plot) + 5 - height, width: max(2, slot - 4), height: height, labelX: x + slot / 2,
                labelY: chart.height - 8, label: label, short: String(label.suffix(slot < 40 ? 5 : 12)), value: format(value)))
        }
        return chart
    }
}
