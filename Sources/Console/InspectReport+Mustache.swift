import Mustache

/// The report's values read by name: swift-mustache otherwise finds each field through `Mirror`, which was
/// three quarters of the time of a report over 10,000 exchanges (perf). A name the template does not use is
/// nil, as a missing key is to Mustache.
extension InspectReport: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "generated": generated
        case "store": store
        case "range": range
        case "count": count
        case "failedCount": failedCount
        case "totalTokens": totalTokens
        case "totalCost": totalCost
        case "models": models
        case "states": states
        case "timeline": timeline
        case "charts": charts
        case "exchanges": exchanges
        default: nil
        }
    }
}

extension InspectReport.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "started": started
        case "method": method
        case "path": path
        case "state": state
        case "status": status
        case "model": model
        case "duration": duration
        case "ttft": ttft
        case "inputTokens": inputTokens
        case "outputTokens": outputTokens
        case "cost": cost
        case "requestId": requestId
        case "responseId": responseId
        case "preset": preset
        case "error": error
        case "eventCount": eventCount
        case "search": search
        case "request": request
        case "waterfall": waterfall
        default: nil
        }
    }
}

extension InspectReport.Timeline: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "width": width
        case "height": height
        case "labelY": labelY
        case "from": from
        case "to": to
        case "items": items
        default: nil
        }
    }
}

extension InspectReport.Timeline.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "x": x
        case "y": y
        case "width": width
        case "state": state
        case "started": started
        case "duration": duration
        default: nil
        }
    }
}

extension InspectReport.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "width": width
        case "height": height
        case "max": max
        case "bars": bars
        default: nil
        }
    }
}

extension InspectReport.Chart.Bar: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "x": x
        case "y": y
        case "width": width
        case "height": height
        case "labelX": labelX
        case "labelY": labelY
        case "label": label
        case "short": short
        case "value": value
        default: nil
        }
    }
}

extension InspectReport.Waterfall: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "width": width
        case "height": height
        case "marks": marks
        case "spans": spans
        default: nil
        }
    }
}

extension InspectReport.Waterfall.Mark: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "x": x
        case "label": label
        case "at": at
        default: nil
        }
    }
}

extension InspectReport.Waterfall.Span: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "x": x
        case "y": y
        case "textY": textY
        case "width": width
        case "label": label
        case "from": from
        case "to": to
        default: nil
        }
    }
}
