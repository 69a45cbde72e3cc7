import Foundation
import Inspector
import ResponsesAPI

/// `inspect watch`: the exchanges of every process that records into the store (the console's commands,
/// `openresponses proxy`) as they start and end, following the store as `tail -f` follows a file, until
/// Ctrl-C. It starts with the last few, as tail does.
extension InspectRunner {
    public func watch(backlog: Int = 10, interval: Duration = .milliseconds(200)) async -> ExitStatus {
        await withReader { store in
            // A team store says when a push adds exchanges, and which (LISTEN/NOTIFY); the local store is polled.
            // Listening begins before the last few are read, so that nothing pushed in between is missed.
            var changes = store.changes()?.makeAsyncIterator()
            if changes != nil, await changes?.next() == nil {
                if Task.isCancelled { return .success }
                throw ConsoleError("the connection to \(store.location) ended", exitStatus: .apiError)
            }
            let recent = try await store.exchanges(matching: ExchangeQuery(limit: max(backlog, 1)))
            var last = recent.first?.id ?? 0
            var open: Set<Int64> = []
            // A team store's pushes commit in their own order: an id below `last` can come later. Those are read
            // by id; `shown` keeps the ids lately shown ended, so that none is shown twice.
            var shown = RecentIDs()
            for row in recent.reversed() where backlog > 0 {
                output.write(Self.watchLine(row, started: false))
                if row.state == "in_progress" { open.insert(row.id) } else { shown.insert(row.id) }
            }
            output.write("Watching \(store.location) (Ctrl-C stops).\n")
            while true {
                var late: [Int64] = []
                if changes != nil {
                    guard let added = await changes?.next(), !Task.isCancelled else {
                        output.write("\n")
                        if Task.isCancelled { break }
                        throw ConsoleError("the connection to \(store.location) ended", exitStatus: .apiError)
                    }
                    // Only ids `shown` still covers: another program's NOTIFY naming old ids reprints nothing.
                    late = added.filter { $0 <= last && $0 > last - Int64(shown.capacity) && !shown.contains($0) }
                } else {
                    do { try await Task.sleep(for: interval) } catch {
                        output.write("\n")  // after the terminal's ^C, so the shell's prompt starts a line
                        break
                    }
                }
                for row in try await store.exchanges(after: last, among: (open.union(late)).sorted()) {
                    let inProgress = row.state == "in_progress"
                    if row.id > last {
                        last = row.id
                        output.write(Self.watchLine(row, started: inProgress))
                        if inProgress { open.insert(row.id) } else { shown.insert(row.id) }
                    } else if !inProgress, open.remove(row.id) != nil || !shown.contains(row.id) {
                        shown.insert(row.id)
                        output.write(Self.watchLine(row, started: false))
                    }
                }
            }
            return .success
        }
    }

    /// `→ 12 14:03:07 POST /v1/responses gpt-4.1 [proxy: OpenAI/Python 1.99]` when an exchange starts,
    /// `← 12 completed 200 gpt-4.1 1.24s 18/230 tokens $0.0004 …` when it ends (or when first seen ended).
    static func watchLine(_ row: ExchangeSummary, started: Bool) -> String {
        let time = InspectorPresenter.localTime(row.startedAt).split(separator: " ").last.map(String.init) ?? ""
        let request = "\(row.method) \(InspectorPresenter.path(of: row.url))"
        let via = row.source == "proxy" ? " [proxy: \(row.client ?? "?")]" : ""
        if started {
            return "→ \(row.id) \(time) \(request)\(row.model.map { " \($0)" } ?? "")\(via)\n"
        }
        var parts = ["← \(row.id) \(time) \(request)", row.state]
        if let status = row.status { parts.append(String(status)) }
        if let model = row.model { parts.append(model) }
        if let duration = row.durationMs { parts.append(InspectorPresenter.milliseconds(duration)) }
        if row.inputTokens != nil || row.outputTokens != nil {
            parts.append(
                "\(row.inputTokens.map(String.init) ?? "-")/\(row.outputTokens.map(String.init) ?? "-") tokens")
        }
        if let cost = row.costUsd { parts.append(String(format: "$%.4f", cost)) }
        if let message = row.errorMessage { parts.append("error: \(message)") }
        return parts.joined(separator: " ") + via + "\n"
    }
}

/// The ids `inspect watch` showed ended lately, the last `capacity` of them.
struct RecentIDs {
    private var set: Set<Int64> = []
    private var order: [Int64] = []
    private var start = 0
    let capacity = 10_000

    func contains(_ id: Int64) -> Bool { set.contains(id) }

    mutating func insert(_ id: Int64) {
        guard set.insert(id).inserted else { return }
        order.append(id)
        if order.count - start > capacity {
            set.remove(order[start])
            start += 1
            if start > capacity {
                order.removeFirst(start)
                start = 0
            }
        }
    }
}
