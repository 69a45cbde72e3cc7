import Foundation
import Inspector
import ResponsesAPI

/// What `inspect report` renders through `inspector/report.mustache`: the exchanges as rows, a timeline, tokens
/// and cost by day and by model as bar charts, and each exchange's request and event waterfall. The values are
/// dictionaries of strings and numbers already formatted (SVG coordinates already computed), so the template
/// has no logic and swift-mustache reads each field by its key: found through `Mirror` in structs, the fields
/// were three quarters of the time of a report over 10,000 exchanges (perf).
enum InspectReport {
    typealias Values = [String: Any]

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
    static func chart(_ title: String, _ values: [(String, Double)], format: (Double) -> String) -> Values {
        var width = 420
        let height = 170
        guard let top = values.map(\.1).max() else {
            return [
                "title": title, "width": width, "height": height,
                "max": "nothing to show (no exchange here has a price)", "bars": [Values](),
            ]
        }
        let plot = Double(height - 30)
        let slot = max(8, (width - 10) / values.count)
        width = max(width, slot * values.count + 10)
        let bars: [Values] = values.enumerated().map { index, entry in
            let (label, value) = entry
            let barHeight = top > 0 ? Int((value / top * plot).rounded()) : 0
            let x = 5 + index * slot
            return [
                "x": x, "y": Int(plot) + 5 - barHeight, "width": max(2, slot - 4), "height": barHeight,
                "labelX": x + slot / 2,
                "labelY": height - 8, "label": label, "short": String(label.suffix(slot < 40 ? 5 : 12)),
                "value": format(value),
            ]
        }
        return ["title": title, "width": width, "height": height, "max": format(top), "bars": bars]
    }
}
