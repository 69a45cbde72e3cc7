import Foundation
import ResponsesAPI

/// `batch wait`'s progress line: `batch_abc in_progress: 4,000/10,000 done (12 failed) · 3m 10s · about 4m
/// left`. What is left is estimated from the rate since the batch began running (the server's
/// `in_progress_at`, so a wait started again estimates as well as the first), else from what this wait saw.
public struct BatchProgress: Sendable {
    private var first: (done: Int, at: Duration)?
    /// The clock that reads the server's timestamps (`in_progress_at`).
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public mutating func observe(_ batch: BatchObject, at elapsed: Duration) {
        if first == nil, batch.status == "in_progress" { first = (batch.completed + batch.failed, elapsed) }
    }

    public func line(for batch: BatchObject, elapsed: Duration) -> String {
        let done = batch.completed + batch.failed
        var line = "\(batch.id) \(batch.status): \(Self.number(done))/\(Self.number(batch.total)) done"
        if batch.failed > 0 { line += " (\(Self.number(batch.failed)) failed)" }
        line += " · " + Self.duration(elapsed.components.seconds)
        if !batch.hasEnded, let left = secondsLeft(batch, elapsed: elapsed) {
            line += " · about " + Self.duration(left) + " left"
        }
        return line
    }

    /// Seconds until every request is done at the rate so far; nil before there is a rate.
    func secondsLeft(_ batch: BatchObject, elapsed: Duration) -> Int64? {
        let done = batch.completed + batch.failed
        guard batch.status == "in_progress", batch.total > done, done > 0 else { return nil }
        var rate: Double?
        if let start = batch.inProgressAt {
            let running = now().timeIntervalSince(start)
            if running > 1 { rate = Double(done) / running }
        }
        if rate == nil, let first, done > first.done {
            let seconds = (elapsed - first.at).milliseconds / 1000
            if seconds > 0 { rate = Double(done - first.done) / seconds }
        }
        guard let rate, rate > 0 else { return nil }
        let left = (Double(batch.total - done) / rate).rounded(.up)
        // Past ten years the estimate says nothing (and would not fit the integer).
        return left.isFinite && left < 315_360_000 ? Int64(left) : nil
    }

    static func number(_ value: Int) -> String { value.formatted(.number.grouping(.automatic)) }

    /// `45s`, `3m 10s`, `2h 05m`.
    static func duration(_ seconds: Int64) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(String(format: "%02d", seconds % 60))s" }
        return "\(seconds / 3600)h \(String(format: "%02d", seconds % 3600 / 60))m"
    }
}
